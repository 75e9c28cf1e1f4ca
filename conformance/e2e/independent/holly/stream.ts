// The public status stream: one global, gap-free sequence (no tenant data on a public endpoint), the
// whole backlog retained, resumption by Last-Event-ID or ?cursor (Last-Event-ID wins: it is the newer
// position an EventSource reports when it reconnects to a cursor address).
import { type Call, fail } from './http.ts';
import type { State, StreamMessage } from './state.ts';

export function publish(state: State, event: string, payload: Record<string, unknown>): void {
  const id = state.stream.length + 1;
  const msg: StreamMessage = { id, event, data: JSON.stringify({ sequence: String(id), type: event, ...payload }) };
  state.stream.push(msg);
  state.bus.emit('message', msg);
}

function parsePosition(raw: string | undefined): number | 'bad' | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) return 'bad';
  return Number(raw.trim());
}

function frame(m: StreamMessage): string {
  return `id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
}

export function openStream(state: State, call: Call) {
  const cursorRaw = call.url.searchParams.get('cursor') ?? undefined;
  const headerRaw = call.req.headers['last-event-id'];
  const cursor = parsePosition(cursorRaw);
  const lastEventId = parsePosition(typeof headerRaw === 'string' ? headerRaw : undefined);
  if (cursor === 'bad' || lastEventId === 'bad') {
    const field = cursor === 'bad' ? 'cursor' : 'Last-Event-ID';
    return fail(call, 'invalid_request', `${field} must be an integer >= 0 (the last number read)`, {
      violations: [{ field, description: 'integer, minimum 0' }],
    });
  }
  const from = lastEventId ?? cursor;
  const { res } = call;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': call.requestId,
    'grpc-status': '0',
  });
  res.write(': holly status stream\nretry: 2000\n\n');
  // Without a position the stream is live only; with one, everything after it, then live.
  let last = from ?? state.stream.length;
  const flush = () => {
    while (last < state.stream.length) {
      const m = state.stream[last];
      last += 1;
      if (m) res.write(frame(m));
    }
  };
  flush();
  const onMessage = () => flush();
  state.bus.on('message', onMessage);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const stop = () => {
    clearInterval(heartbeat);
    state.bus.off('message', onMessage);
  };
  call.req.on('close', stop);
  res.on('close', stop);
}
