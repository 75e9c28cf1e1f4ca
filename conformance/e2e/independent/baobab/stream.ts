// The public status stream: one numbered sequence (no tenant names or labels in it), kept whole in
// memory, replayed after the number a client last read (Last-Event-ID or ?cursor).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type CallContext } from './http-util.ts';
import type { State, StreamMessage } from './state.ts';
import { queryInt } from './validate.ts';

export function publish(state: State, kind: string, payload: Record<string, unknown>): void {
  const msg: StreamMessage = { seq: state.stream.length + 1, kind, at: new Date().toISOString(), payload };
  state.stream.push(msg);
  for (const fn of state.subscribers) fn(msg);
}

function frame(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.kind}\ndata: ${JSON.stringify({ seq: m.seq, kind: m.kind, at: m.at, ...m.payload })}\n\n`;
}

/** Where to resume: Last-Event-ID first (the browser's own mechanism), else ?cursor, else live only. */
function resumeAfter(state: State, req: IncomingMessage, query: URLSearchParams): number {
  const cursor = queryInt(query, 'cursor', -1, 0, Number.MAX_SAFE_INTEGER);
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && header.trim() !== '') {
    if (!/^\d+$/.test(header.trim())) {
      throw new ApiError(
        'invalid_request',
        'Request validation failed',
        'header.last-event-id: Input should be a valid integer',
      );
    }
    return Number(header.trim());
  }
  return cursor >= 0 ? cursor : state.stream.length;
}

export function openStream(
  state: State,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  ctx: CallContext,
): void {
  const after = resumeAfter(state, req, query);
  res.writeHead(200, {
    ...ctx.headers,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Request-Id': ctx.requestId,
    'X-Accel-Buffering': 'no',
  });
  res.write('retry: 2000\n\n');
  for (const m of state.stream) if (m.seq > after) res.write(frame(m));
  const send = (m: StreamMessage) => {
    if (m.seq > after) res.write(frame(m));
  };
  state.subscribers.add(send);
  const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  ping.unref();
  const stop = () => {
    clearInterval(ping);
    state.subscribers.delete(send);
  };
  req.on('close', stop);
  res.on('close', stop);
}
