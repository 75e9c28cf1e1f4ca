// The status stream: one event log per tenant (an ETS ordered_set keyed by sequence number) and a subscriber
// set per tenant, the way a Gleam team fans out with a process group. Anonymous callers get the public
// channel, which carries service notices only, never a tenant's data.
import { authenticate } from './auth.ts';
import { ApiError, type Ctx } from './http.ts';
import { iso, type Rec, type Store } from './state.ts';

const PUBLIC = '';
type Subscriber = (event: Rec) => void;
const subscribers = new WeakMap<Store, Map<string, Set<Subscriber>>>();

function subs(store: Store, channel: string): Set<Subscriber> {
  let byChannel = subscribers.get(store);
  if (!byChannel) {
    byChannel = new Map();
    subscribers.set(store, byChannel);
  }
  let set = byChannel.get(channel);
  if (!set) {
    set = new Set();
    byChannel.set(channel, set);
  }
  return set;
}

/** Appends an event with the tenant's next consecutive number and pushes it to live subscribers. */
export function publish(store: Store, tenant: string, type: string, data: Rec): void {
  const log = store.events.get(tenant) ?? [];
  store.events.set(tenant, log);
  const event = { seq: log.length + 1, type, at: iso(), data };
  log.push(event);
  for (const s of subs(store, tenant)) s(event);
}

function frame(e: Rec): string {
  return `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}

function resumeFrom(ctx: Ctx): number | undefined {
  const header = ctx.req.headers['last-event-id'];
  const query = ctx.url.searchParams.get('cursor');
  const value = typeof header === 'string' && header !== '' ? header : query;
  if (value === null || value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new ApiError(400, 'invalid_request', 'Request is invalid', 'cursor: an integer, minimum 0');
  return Number(value);
}

/** Starts the public channel's heartbeat (a numbered service notice, no tenant's data). */
export function startHeartbeat(store: Store): () => void {
  const every = store.options.publicHeartbeatMs;
  if (!every) return () => {};
  const timer = setInterval(() => publish(store, PUBLIC, 'service.heartbeat', { status: 'ok' }), every);
  return () => clearInterval(timer);
}

export function openStream(store: Store, ctx: Ctx): void {
  if (ctx.req.headers.authorization) authenticate(store, ctx);
  const channel = ctx.tenant ?? PUBLIC;
  const after = resumeFrom(ctx);
  ctx.res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
  });
  ctx.res.write('retry: 3000\n: bayberry status stream\n\n');
  let last = after ?? (store.options.streamReplayAll ? 0 : (store.events.get(channel)?.length ?? 0));
  // Backlog first, then live: `last` guards against a message published while the backlog is written.
  for (const e of store.events.get(channel) ?? []) {
    if (e.seq > last) {
      ctx.res.write(frame(e));
      last = e.seq;
    }
  }
  const push: Subscriber = (e) => {
    if (e.seq <= last) return;
    last = e.seq;
    ctx.res.write(frame(e));
  };
  const set = subs(store, channel);
  set.add(push);
  const beat = setInterval(() => ctx.res.write(': keepalive\n\n'), 15_000);
  const stop = () => {
    clearInterval(beat);
    set.delete(push);
  };
  ctx.req.on('close', stop);
  ctx.res.on('close', stop);
}
