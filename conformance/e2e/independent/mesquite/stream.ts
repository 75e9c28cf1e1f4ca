// The status stream: Ballerina's `http:SseEvent` stream. A signed-in caller (bearer + tenant) reads its
// tenant's messages, numbered per tenant; the public stream reads every change without tenant data,
// numbered on its own. Each message keeps its number, so a resume replays exactly what followed.
import type { ServerResponse } from 'node:http';
import { authenticate } from './auth.ts';
import type { Ctx } from './http.ts';
import { ApiError } from './http.ts';
import { civilNow, type Rec, type Store } from './state.ts';

interface Channel {
  messages: { id: number; event: string; data: string }[];
  start: number;
  clients: Set<ServerResponse>;
}

const hubs = new WeakMap<Store, Map<string, Channel>>();
const PUBLIC = '*public*';

function channel(store: Store, name: string): Channel {
  let hub = hubs.get(store);
  if (!hub) {
    hub = new Map();
    hubs.set(store, hub);
  }
  let ch = hub.get(name);
  if (!ch) {
    ch = { messages: [], clients: new Set(), start: store.options.streamStart };
    hub.set(name, ch);
  }
  return ch;
}

function write(res: ServerResponse, m: { id: number; event: string; data: string }): void {
  res.write(`id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`);
}

function push(ch: Channel, event: string, payload: Rec): void {
  const m = { id: ch.messages.length + ch.start, event, data: JSON.stringify(payload) };
  ch.messages.push(m);
  for (const c of ch.clients) write(c, m);
}

/** Publishes a connection's change on its tenant's channel and, stripped of tenant data, on the public one. */
export function publish(store: Store, tenant: string, event: string, connection: Rec): void {
  const at = civilNow();
  push(channel(store, tenant), event, { type: event, occurredAt: at, connection });
  push(channel(store, PUBLIC), event, { type: event, occurredAt: at, state: connection.state });
}

export function openStream(ctx: Ctx): void {
  // Signed in when it carries a bearer: then the gateway's checks apply in full.
  const signedIn = ctx.req.headers.authorization !== undefined;
  if (signedIn) authenticate(ctx);
  const q = ctx.url.searchParams.get('cursor');
  const h = ctx.req.headers['last-event-id'];
  const from = q ?? (typeof h === 'string' ? h : undefined);
  let after = -1;
  if (from !== undefined && from !== '') {
    if (!/^\d+$/.test(from))
      throw new ApiError('invalid_request', 'cursor / Last-Event-ID must be an integer of at least 0.');
    after = Number(from);
  }
  const ch = channel(ctx.store, signedIn && ctx.tenant ? ctx.tenant : PUBLIC);
  const res = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    activityid: ctx.requestId,
    ...ctx.limitHeaders,
  });
  res.write(': mesquite status stream\n\n');
  for (const m of ch.messages) if (m.id > after) write(res, m);
  ch.clients.add(res);
  const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  res.on('close', () => {
    clearInterval(ping);
    ch.clients.delete(res);
  });
}

export function closeStreams(store: Store): void {
  for (const ch of hubs.get(store)?.values() ?? []) for (const c of ch.clients) c.destroy();
}
