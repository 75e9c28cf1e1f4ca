// The status stream: every state change gets the next consecutive number, kept in an event log so a client
// resumes by `cursor` or Last-Event-ID (the last number read) without gaps; also fans out to webhooks.
import { randomUUID } from 'node:crypto';
import { bad, type Ctx } from './http.ts';
import { instant, type Rec, type Store } from './state.ts';
import { dispatch } from './webhooks.ts';

export function publish(store: Store, tenant: string, type: string, connection: Rec) {
  const event = {
    seq: store.events.length + 1,
    eventId: randomUUID(),
    type,
    tenant,
    occurredAt: instant(undefined, store.options.utcOffsetMinutes),
    connection,
  };
  store.events.push(event);
  for (const listener of store.streamListeners) listener(event);
  dispatch(store, tenant, type, event);
}

function position(ctx: Ctx): number {
  const raw = ctx.query.get('cursor') ?? ctx.headers['last-event-id'];
  if (raw === undefined || raw === null || raw === '') return -1;
  if (!/^\d+$/.test(raw)) throw bad('cursor: must be an integer of at least 0');
  return Number(raw);
}

/** SSE frame: the public stream shows the connection id and state, not the tenant's other data. */
function frame(e: Rec, indent: number): string {
  const data = {
    seq: e.seq,
    eventId: e.eventId,
    type: e.type,
    occurredAt: e.occurredAt,
    connectionId: e.connection.id,
    state: e.connection.state,
    connection: { id: e.connection.id, state: e.connection.state, connectorId: e.connection.connectorId },
  };
  // Pretty-printed JSON goes out as one `data:` line per text line; the client joins them with line breaks.
  const lines = JSON.stringify(data, null, indent || undefined)
    .split('\n')
    .map((l) => `data: ${l}\n`);
  return `id: ${e.seq}\nevent: ${e.type}\n${lines.join('')}\n`;
}

/** GET /stream (public): the backlog after the position, then live messages; without one, live only (or all). */
export function stream(store: Store, ctx: Ctx) {
  const after = position(ctx);
  const { res } = ctx;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
  });
  res.write(`retry: 3000\n: pawpaw status stream, version ${ctx.version}\n\n`);
  let last = after >= 0 ? after : store.options.streamFromStart ? 0 : store.events.length;
  const send = (e: Rec) => {
    if (e.seq <= last) return;
    last = e.seq;
    res.write(frame(e, ctx.indent));
  };
  for (const e of store.events.slice(Math.max(0, last))) send(e);
  store.streamListeners.add(send);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const limit = store.options.streamMaxMs > 0 ? setTimeout(() => res.end(), store.options.streamMaxMs) : undefined;
  const stop = () => {
    clearInterval(heartbeat);
    clearTimeout(limit);
    store.streamListeners.delete(send);
  };
  res.on('close', stop);
  ctx.req.on('close', stop);
}
