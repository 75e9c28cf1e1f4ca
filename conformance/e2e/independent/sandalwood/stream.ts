// GET /stream: Server-Sent Events with consecutive ids; resumes after Last-Event-ID or ?cursor (last number read).
import { ApiError, type Call } from './http.ts';
import type { State, StreamEvent } from './state.ts';

function position(text: string, field: string): number {
  if (!/^\d+$/.test(text.trim()))
    throw new ApiError('invalid_request', `${field} must be an integer, minimum 0.`, { field });
  return Number(text.trim());
}

export function openStream(state: State, call: Call): void {
  const header = call.req.headers['last-event-id'];
  const lastEventId = Array.isArray(header) ? header[0] : header;
  const cursor = call.url.searchParams.get('cursor');
  let after = 0;
  if (cursor !== null) after = position(cursor, 'cursor');
  // A reconnecting EventSource sends Last-Event-ID; it is the later position the client has read.
  if (lastEventId !== undefined && lastEventId !== '') after = Math.max(after, position(lastEventId, 'Last-Event-ID'));

  const res = call.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': call.requestId,
  });
  res.write(`: sandalwood status stream, version ${call.version}\nretry: 2000\n\n`);
  let sent = after;
  const send = (e: StreamEvent) => {
    if (e.seq !== sent + 1) return;
    sent = e.seq;
    res.write(`id: ${e.seq}\nevent: ${e.event}\ndata: ${JSON.stringify({ seq: e.seq, type: e.event, ...e.data })}\n\n`);
  };
  for (const e of state.events.slice(after)) send(e);
  state.listeners.add(send);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const end = () => {
    clearInterval(heartbeat);
    if (limit) clearTimeout(limit);
    state.listeners.delete(send);
    if (!res.writableEnded) res.end();
  };
  const max = state.options.streamMaxSeconds;
  const limit = max === null ? undefined : setTimeout(end, max * 1000);
  closers.get(state)?.add(end) ?? closers.set(state, new Set([end]));
  res.on('close', () => {
    end();
    closers.get(state)?.delete(end);
  });
}

const closers = new WeakMap<State, Set<() => void>>();

/** Ends every open stream (on close of the service). */
export function endStreams(state: State): void {
  for (const end of closers.get(state) ?? []) end();
}
