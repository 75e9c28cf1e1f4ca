// The public status stream (SSE): one consecutive sequence for the whole deployment, kept in memory so a
// client resumes after `Last-Event-ID` (what a reconnecting EventSource sends, so it wins) or `?cursor`.
import type { ServerResponse } from 'node:http';
import { ApiError, type Ctx, iso } from './http.ts';
import type { Store } from './state.ts';

const BACKLOG = 10_000;

/** ActionController::Live::SSE framing: the writer's options (retry, event, id) before the data, every message. */
function frame(m: { seq: number; event: string; data: string }): string {
  return `retry: 2000\nevent: ${m.event}\nid: ${m.seq}\ndata: ${m.data}\n\n`;
}

/** Appends a message and writes it to every open stream. */
export function publish(store: Store, event: string, payload: Record<string, unknown>): void {
  const seq = store.stream.length === 0 ? 1 : (store.stream[store.stream.length - 1]?.seq ?? 0) + 1;
  const data = JSON.stringify({ seq, type: event, ...payload, published_at: iso() });
  const message = { seq, event, data };
  store.stream.push(message);
  if (store.stream.length > BACKLOG) store.stream.shift();
  for (const res of store.sseClients) res.write(frame(message));
}

/** Where the client resumes: Last-Event-ID first, then ?cursor; neither: live messages only. */
function startAfter(store: Store, ctx: Ctx): number {
  const raw = ctx.url.searchParams.get('cursor');
  if (raw !== null && !/^[0-9]+$/.test(raw)) {
    throw new ApiError('invalid_request', 'cursor must be an integer of at least 0', 'param: cursor');
  }
  const header = ctx.req.headers['last-event-id'];
  if (typeof header === 'string' && /^[0-9]+$/.test(header.trim())) return Number(header.trim());
  if (raw !== null) return Number(raw);
  return store.stream[store.stream.length - 1]?.seq ?? 0;
}

export function openStream(store: Store, ctx: Ctx): void {
  const after = startAfter(store, ctx);
  const res: ServerResponse = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
    'x-accel-buffering': 'no',
  });
  res.write(': connected\n\n');
  for (const m of store.stream) if (m.seq > after) res.write(frame(m));
  store.sseClients.add(res);
  // A comment every 15 s keeps proxies from closing an idle stream.
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const done = () => {
    clearInterval(beat);
    store.sseClients.delete(res);
  };
  res.on('close', done);
  ctx.req.on('close', done);
}
