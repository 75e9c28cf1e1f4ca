// The public status stream: one sequence for the whole service, named events (`event: connection.created`),
// `: ping` every 15 s, and the stream ended after 30 s without a message (clients resume by number).
// Messages carry ids and states only: the stream is public, so no tenant's labels travel on it.
import type { Call } from './http-kit.ts';
import { sendError } from './http-kit.ts';
import type { State, StreamMessage } from './state.ts';

const PING_MS = 15_000;

export function publish(state: State, event: string, payload: Record<string, unknown>): void {
  const seq = state.stream.length + 1;
  const message: StreamMessage = { seq, event, data: JSON.stringify({ sequence: seq, event, ...payload }) };
  state.stream.push(message);
  for (const listener of state.listeners) listener(message);
}

function frame(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
}

/** A position is a non-negative integer in decimal digits; anything else is refused, not guessed at. */
function position(call: Call, value: string | undefined, name: string): number | null | undefined {
  if (value === undefined) return null;
  if (!/^\d+$/.test(value)) {
    sendError(
      call,
      'invalid_request',
      `The ${name} must be an integer of at least 0.`,
      `${name} is not a non-negative integer.`,
      'Send the number of the last message read, or nothing to start with new messages.',
    );
    return undefined;
  }
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : Number.MAX_SAFE_INTEGER;
}

export function openStream(state: State, call: Call): void {
  const cursors = call.query.getAll('cursor');
  if (cursors.length > 1) {
    sendError(call, 'invalid_request', 'The cursor must be sent once.', 'Query parameter cursor was sent twice.');
    return;
  }
  const cursor = position(call, cursors[0], 'cursor');
  if (cursor === undefined) return;
  const header = call.req.headers['last-event-id'];
  const lastEventId = position(call, typeof header === 'string' ? header.trim() : undefined, 'Last-Event-ID');
  if (lastEventId === undefined) return;
  // A browser-style reconnect sends Last-Event-ID with the original URL: the header is the newer position.
  const after = lastEventId ?? cursor;
  const { res } = call;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, private',
    'x-accel-buffering': 'no',
    'cf-ray': call.requestId,
    'x-request-id': call.requestId,
    server: 'cloudflare',
    ...call.headers,
  });
  res.write(': connected\n\n');
  let last = after ?? state.stream.length;
  const idleMs = state.options.streamIdleSeconds * 1000;
  let idle: NodeJS.Timeout;
  const resetIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => res.end(), idleMs);
  };
  const send = (m: StreamMessage) => {
    if (m.seq <= last) return;
    last = m.seq;
    res.write(frame(m));
    resetIdle();
  };
  for (const m of state.stream) if (m.seq > last) send(m);
  resetIdle();
  const ping = setInterval(() => !res.writableEnded && res.write(': ping\n\n'), PING_MS);
  state.listeners.add(send);
  const stop = () => {
    clearInterval(ping);
    clearTimeout(idle);
    state.listeners.delete(send);
  };
  res.on('close', stop);
  call.req.on('close', stop);
}
