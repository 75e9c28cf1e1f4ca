// GET /stream: Server-Sent Events over one public sequence (ids 1, 2, 3, ...). Resumption by
// Last-Event-ID or ?cursor (both "last number read"); when both are sent the header wins, as the
// EventSource reconnect is the more recent statement of what the client read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store, StreamMessage } from './state.ts';
import { ApiError } from './util.ts';

const DIGITS = /^(0|[1-9][0-9]{0,15})$/;

function position(req: IncomingMessage, q: URLSearchParams): number {
  const header = req.headers['last-event-id'];
  const cursor = q.get('cursor');
  if (cursor !== null && !DIGITS.test(cursor))
    throw new ApiError(400, 'invalid_request', 'cursor must be an integer of at least 0', 'at $.query.cursor');
  if (typeof header === 'string' && header.trim() !== '') {
    if (!DIGITS.test(header.trim()))
      throw new ApiError(
        400,
        'invalid_request',
        'Last-Event-ID must be the number of the last message read',
        'at $.headers.last-event-id',
      );
    return Number(header.trim());
  }
  return cursor === null ? -1 : Number(cursor);
}

function frame(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.kind}\ndata: ${JSON.stringify({ seq: m.seq, kind: m.kind, ...m.data })}\n\n`;
}

/** Opens the stream; without a position it starts live (no backlog), with one it replays what followed. */
export function openStream(
  req: IncomingMessage,
  res: ServerResponse,
  store: Store,
  q: URLSearchParams,
  headers: Record<string, string>,
): void {
  const after = position(req, q);
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(`: magnolia status stream\nretry: 2000\n\n`);
  let sent = after < 0 ? store.log.length : after;
  const flush = (): void => {
    while (sent < store.log.length) {
      const m = store.log[sent];
      sent += 1;
      if (m) res.write(frame(m));
    }
  };
  flush();
  const listener = (): void => flush();
  store.listeners.add(listener);
  const beat = setInterval(() => res.write(': keepalive\n\n'), 15_000);
  const end = (): void => {
    clearInterval(beat);
    store.listeners.delete(listener);
  };
  req.on('close', end);
  res.on('close', end);
}
