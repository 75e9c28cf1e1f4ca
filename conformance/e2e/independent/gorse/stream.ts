// The public status stream: SSE with ids = global sequence numbers, a retry field, heartbeat comments,
// resumption from ?cursor (wins) or Last-Event-ID. Payloads carry no tenant data (the stream is public).
import type { Call } from './http-kit.ts';
import { ApiError } from './http-kit.ts';
import type { GorseState, StreamMessage } from './state.ts';

function parseLast(v: string | null | undefined, name: string): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (!/^\d{1,15}$/.test(v.trim())) throw new ApiError('invalid_request', `${name} must be an integer of at least 0`);
  return Number(v.trim());
}

export function openStream(call: Call, state: GorseState): void {
  const cursor = parseLast(call.url.searchParams.get('cursor'), 'cursor');
  const header = call.req.headers['last-event-id'];
  const lastId = parseLast(Array.isArray(header) ? header[0] : header, 'Last-Event-ID');
  const after = cursor ?? lastId ?? state.stream.length;
  const { res } = call;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-request-id': call.requestId,
    'service-version': call.version,
    'x-accel-buffering': 'no',
  });
  res.write('retry: 3000\n: gorse status stream\n\n');
  let sent = after;
  const send = (m: StreamMessage) => {
    if (m.seq <= sent) return;
    sent = m.seq;
    res.write(`id: ${m.seq}\nevent: ${m.kind}\ndata: ${JSON.stringify({ seq: m.seq, kind: m.kind, ...m.data })}\n\n`);
  };
  for (const m of state.stream) send(m);
  state.listeners.add(send);
  const hb = setInterval(() => res.write(`: hb ${new Date().toISOString()}\n\n`), state.opts.heartbeatMs);
  const cut = state.opts.streamMaxMs > 0 ? setTimeout(() => res.end(), state.opts.streamMaxMs) : undefined;
  const done = () => {
    clearInterval(hb);
    clearTimeout(cut);
    state.listeners.delete(send);
  };
  res.on('close', done);
  call.req.on('close', done);
}
