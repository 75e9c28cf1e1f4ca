// The public status stream (SSE): one sequence for the whole deployment, numbered from 1, with no tenant
// data in it. Resumption: Last-Event-ID (as browsers reconnect) wins over ?cursor; both mean "last read".
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bad } from './http-util.ts';
import type { State, StreamMessage } from './state.ts';

const frame = (m: StreamMessage) => `id: ${m.seq}\nevent: ${m.event}\ndata: ${m.data}\n\n`;

export function publish(s: State, event: string, payload: Record<string, unknown>): void {
  const seq = s.stream.length + 1;
  const m = { seq, event, data: JSON.stringify({ seq, type: event, at: new Date().toISOString(), ...payload }) };
  s.stream.push(m);
  for (const res of s.listeners) res.write(frame(m));
}

/** Parses where to resume; a bad cursor is a 400 (integer, minimum 0), an unreadable Last-Event-ID is ignored. */
export function resumeFrom(req: IncomingMessage, url: URL, cursorWins: boolean): number | null {
  const raw = req.headers['last-event-id'];
  const header = typeof raw === 'string' && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : null;
  const q = url.searchParams.get('cursor');
  if (q !== null && !/^\d{1,15}$/.test(q)) throw bad('cursor must be an integer, minimum 0');
  const cursor = q === null ? null : Number(q);
  return cursorWins ? (cursor ?? header) : (header ?? cursor);
}

export function openStream(s: State, res: ServerResponse, after: number | null, requestId: string): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-request-id': requestId,
  });
  res.write(': kapok status stream\nretry: 1000\n\n');
  if (after !== null) for (const m of s.stream.slice(after)) res.write(frame(m));
  s.listeners.add(res);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const cap = s.opts.streamMaxMs > 0 ? setTimeout(() => res.end(), s.opts.streamMaxMs) : undefined;
  res.on('close', () => {
    clearTimeout(cap);
    clearInterval(beat);
    s.listeners.delete(res);
  });
}
