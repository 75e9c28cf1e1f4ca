// GET /stream: Server-Sent Events, `id:` = sequence number, `event: status`, JSON data; a comment
// heartbeat every 15 s. Last-Event-ID wins over ?cursor when both are sent (MAPLE_CURSOR_WINS flips it).
import type { Call } from './http-kit.ts';
import { ApiError } from './http-kit.ts';
import type { Store, StreamMessage } from './store.ts';

const HEARTBEAT_MS = 15_000;

function lastRead(value: string | null | undefined, name: string) {
  if (value === null || value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) {
    throw new ApiError('invalid_request', `${name} must be an integer of at least 0`, 'send the last number read');
  }
  return Number(value);
}

export function openStream(call: Call, store: Store, cursorWins: boolean) {
  const header = call.req.headers['last-event-id'];
  const fromHeader = lastRead(Array.isArray(header) ? header[0] : header, 'Last-Event-ID');
  const fromQuery = lastRead(call.url.searchParams.get('cursor'), 'cursor');
  const after = (cursorWins ? (fromQuery ?? fromHeader) : (fromHeader ?? fromQuery)) ?? store.messages.length;
  const { res } = call;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    server: 'envoy',
    'x-request-id': call.requestId,
    'x-envoy-upstream-service-time': String(Date.now() - call.started),
    connection: 'close',
  });
  let sent = after;
  const write = (m: StreamMessage) => {
    if (m.seq <= sent) return;
    sent = m.seq;
    res.write(`id: ${m.seq}\nevent: status\ndata: ${JSON.stringify(m.data)}\n\n`);
  };
  res.write(': maple status stream\n\n');
  for (const m of store.messages.slice(after)) write(m);
  const stop = store.subscribe(write);
  const beat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
  const end = () => {
    stop();
    clearInterval(beat);
  };
  call.req.on('close', end);
  res.on('close', end);
}
