// GET /stream: Server-Sent Events as a Vapor `Response.Body(asyncStream:)` would write them. A valid bearer
// token with a released tenant reads that tenant's stream; anyone else the public one (no tenant data).
// Without a cursor the stream starts live; `cursor` or Last-Event-ID replays every later message first.
import { bearerClient } from './auth.ts';
import { Abort, type Ctx } from './http.ts';
import { RELEASED, type Store, type StreamEvent } from './state.ts';

const HEARTBEAT_MS = 15_000;

function frame(e: StreamEvent): string {
  return `id: ${e.seq}\nevent: ${e.event}\ndata: ${JSON.stringify({ sequence: e.seq, ...e.data })}\n\n`;
}

function resumeFrom(ctx: Ctx): number | null {
  const cursor = ctx.query.get('cursor');
  const last = ctx.req.headers['last-event-id'];
  const text = cursor ?? (typeof last === 'string' ? last : null);
  if (text === null) return null;
  if (!/^\d+$/.test(text.trim())) throw new Abort(400, 'cursor must be an integer of at least 0.');
  return Number(text.trim());
}

export function stream(ctx: Ctx, store: Store): void {
  const after = resumeFrom(ctx);
  const tenantHeader = ctx.req.headers['x-service-tenant'];
  const authed = bearerClient(ctx, store) !== null;
  const tenant = authed && typeof tenantHeader === 'string' && RELEASED.includes(tenantHeader) ? tenantHeader : '';
  const { res } = ctx;
  res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
  });
  res.write(': rosewood status stream\nretry: 2000\n\n');
  const history = store.tenantList(store.streams, tenant);
  // Replay and the live listener are set up in one tick, so no message falls between them.
  let sent = after ?? history.length;
  for (const e of history) if (e.seq > sent) res.write(frame(e));
  sent = Math.max(sent, history.length);
  const listener = (t: string, e: StreamEvent) => {
    if (t !== tenant || e.seq <= sent) return;
    sent = e.seq;
    res.write(frame(e));
  };
  store.listeners.add(listener);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const stop = () => {
    clearInterval(beat);
    store.listeners.delete(listener);
  };
  ctx.req.on('close', stop);
  res.on('close', stop);
}
