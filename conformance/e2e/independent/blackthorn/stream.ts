// GET /stream: Server-Sent Events numbered from 1. A client resumes with Last-Event-ID (the SSE standard's
// header wins) or ?cursor=, both "the last number read"; everything after it is sent once, then live ones.
// One outbox feeds both channels: each state change gets the next number and is fanned out to the SSE
// listeners (a core.async mult in the original) and to the tenant's matching webhook receivers.
import { ApiError, type Ctx } from './http.ts';
import { instant, type Rec, type Store, uuid } from './state.ts';
import { enqueueDeliveries } from './webhooks.ts';

function lastRead(ctx: Ctx): number {
  const header = ctx.req.headers['last-event-id'];
  const raw = typeof header === 'string' && header !== '' ? header : ctx.url.searchParams.get('cursor');
  if (raw === null) return 0;
  if (!/^\d+$/.test(raw)) {
    throw new ApiError(
      400,
      'invalid_request',
      'cursor must be an integer of at least 0',
      `cursor: should be an integer >= 0, got ${raw.slice(0, 40)}`,
    );
  }
  return Number(raw);
}

const frame = (e: Rec) =>
  `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify({ seq: e.seq, 'event-id': e.id, type: e.type, at: e.at, ...e.payload })}\n\n`;

export function stream(store: Store, ctx: Ctx) {
  const after = lastRead(ctx);
  ctx.res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
  });
  ctx.res.write(`: blackthorn stream, resuming after ${after}\nretry: 2000\n\n`);
  for (const e of store.events) if (e.seq > after) ctx.res.write(frame(e));
  const listener = (e: Rec) => {
    if (e.seq > after) ctx.res.write(frame(e));
  };
  store.listeners.add(listener);
  // A comment every 15 s keeps proxies from closing an idle stream.
  const beat = setInterval(() => ctx.res.write(': keep-alive\n\n'), 15_000);
  ctx.req.on('close', () => {
    clearInterval(beat);
    store.listeners.delete(listener);
  });
}

export function publish(store: Store, tenant: string, type: string, connection: Rec) {
  const event = {
    seq: store.events.length + 1,
    id: uuid(),
    type,
    tenant,
    at: instant(),
    payload: { 'connection-id': connection.id, state: connection.state, 'next-step': connection.nextStep },
  };
  store.events.push(event);
  for (const listener of store.listeners) listener(event);
  enqueueDeliveries(store, tenant, event, { ...connection });
}
