// The public status stream (SSE): one consecutive sequence for the whole service, the last 1000 messages
// kept for resumption. Messages name a connection by id and its state, never a tenant or scope label.
// Last-Event-ID wins over ?cursor when both are sent (it is what a reconnecting client last saw).
import { ApiError, type Call, header } from './http.ts';
import type { State, StreamMessage } from './state.ts';
import { counter } from './validate.ts';

const BACKLOG = 1000;

function frame(m: StreamMessage): string {
  return `id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
}

export function publishStream(state: State, event: string, payload: Record<string, unknown>): void {
  const id = ++state.seq.stream;
  const msg = { id, event, data: JSON.stringify({ sequence: id, event, ...payload }) };
  state.stream.push(msg);
  if (state.stream.length > BACKLOG) state.stream.shift();
  for (const res of state.listeners) res.write(frame(msg));
}

export function openStream(state: State, call: Call): void {
  const fromHeader = counter(header(call.req, 'last-event-id'), 'Last-Event-ID');
  const fromQuery = counter(call.url.searchParams.get('cursor'), 'cursor');
  if (call.url.searchParams.getAll('cursor').length > 1) {
    throw new ApiError('invalid_request', 'cursor is invalid', 'send cursor once');
  }
  const after = fromHeader ?? fromQuery;
  const { res } = call;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'X-Request-Id': call.requestId,
  });
  res.write(`retry: 2000\n: alder status stream, request ${call.requestId}\n\n`);
  if (after !== undefined) for (const m of state.stream) if (m.id > after) res.write(frame(m));
  state.listeners.add(res);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const done = () => {
    clearInterval(beat);
    state.listeners.delete(res);
  };
  res.on('close', done);
  res.on('error', done);
}

/** Ends every open stream (shutdown): clients reconnect elsewhere with Last-Event-ID. */
export function closeStreams(state: State): void {
  for (const res of state.listeners) res.end();
  state.listeners.clear();
}
