// Server-Sent Events as falcon.asgi's SSEvent writes them: `id`, `event`, `data` lines. Two streams: a tenant's own
// (bearer token and tenant header) numbered per tenant, and the public one (no credentials) numbered on its own,
// whose messages name the kind of change and its time but no tenant's data.
import { ApiError, type Ctx } from './http.ts';
import { dumps } from './pyjson.ts';
import { isoformat, type Rec, type Sse, type Store } from './state.ts';

const PUBLIC = '*';

function frame(e: Rec): string {
  return `id: ${e.seq}\nevent: ${e.event}\ndata: ${dumps(e.data)}\n\n`;
}

function append(store: Store, channel: string, event: string, data: Rec): Rec {
  const list = store.events.get(channel) ?? [];
  store.events.set(channel, list);
  const e = { seq: list.length + 1, event, data };
  list.push(e);
  for (const s of store.streams) if ((s.tenant ?? PUBLIC) === channel) s.res.write(frame(e));
  return e;
}

/** Records a change on the tenant's stream and, redacted, on the public one. */
export function publish(store: Store, tenant: string, event: string, payload: Rec): void {
  const at = isoformat();
  append(store, tenant, event, { type: event, occurred_at: at, connection: payload });
  append(store, PUBLIC, event, { type: event, occurred_at: at });
}

function lastRead(ctx: Ctx): number {
  const header = ctx.req.headers['last-event-id'];
  const cursor = ctx.query.get('cursor');
  // The header wins: a reconnecting EventSource repeats its original URL (and its cursor) beside it.
  const raw = typeof header === 'string' && header !== '' ? header : cursor;
  if (raw === null || raw === undefined) return 0;
  if (!/^\d+$/.test(raw)) {
    throw new ApiError('invalid_request', 'Invalid cursor.', '{"cursor": ["Must be greater than or equal to 0."]}');
  }
  return Number(raw);
}

/** GET /stream: public; with credentials it is the tenant's stream (authenticated by the caller's hook). */
export function openStream(store: Store, ctx: Ctx, tenant: string | null): void {
  const after = lastRead(ctx);
  const channel = tenant ?? PUBLIC;
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': ctx.requestId,
    'x-accel-buffering': 'no',
  });
  ctx.res.write('retry: 3000\n\n');
  for (const e of store.events.get(channel) ?? []) if (e.seq > after) ctx.res.write(frame(e));
  const sse: Sse = { tenant, res: ctx.res };
  store.streams.add(sse);
  const ping = setInterval(() => ctx.res.write(': keep-alive\n\n'), 15_000);
  ctx.res.on('close', () => {
    clearInterval(ping);
    store.streams.delete(sse);
  });
}
