// GET /stream: one public Server-Sent Events sequence for the whole service (ActionController::Live behind
// nginx with proxy_buffering off). Every message has `id: <seq>`, `event: <kind>` and a JSON `data:` line
// that names the connection and its state but no tenant and no descriptive name (the stream is public).
// A client resumes with Last-Event-ID or ?cursor (Last-Event-ID wins when both are sent); without either
// it gets live messages only. `: keepalive` comments every 10 s keep proxies from closing the socket.
import { invalid } from './http-kit.ts';
import type { Connection, Ctx, State, StreamMessage } from './types.ts';
import { wholeNumber } from './validate.ts';

const RETAINED = 50_000;
const KEEPALIVE_MS = 10_000;

export function publish(state: State, kind: string, connection: Connection, occurredAt: string) {
  const s = state.stream;
  s.seq += 1;
  const message: StreamMessage = {
    seq: s.seq,
    kind,
    payload: {
      connectionId: connection.id,
      connectorId: connection.connectorId,
      environment: connection.environment,
      state: connection.state,
      occurredAt,
    },
  };
  s.messages.push(message);
  if (s.messages.length > RETAINED) s.messages.splice(0, s.messages.length - RETAINED);
  for (const listener of s.listeners) listener(message);
}

function frame(m: StreamMessage, state: State): string {
  const { sseCrlf, sseMultiline, sseKindInData } = state.options;
  const payload = sseKindInData ? { kind: m.kind, ...m.payload } : m.payload;
  const json = sseMultiline ? JSON.stringify(payload, null, 2) : JSON.stringify(payload);
  const head = sseKindInData ? [`id: ${m.seq}`] : [`id: ${m.seq}`, `event: ${m.kind}`];
  const lines = [...head, ...json.split('\n').map((l) => `data: ${l}`), '', ''];
  return lines.join(sseCrlf ? '\r\n' : '\n');
}

function resumeFrom(ctx: Ctx): number | undefined {
  const header = ctx.req.headers['last-event-id'];
  const lastEventId = Array.isArray(header) ? header[0] : header;
  const cursor = wholeNumber(ctx.url.searchParams.get('cursor'), 'cursor', 0);
  if (lastEventId !== undefined && lastEventId.trim() !== '') {
    if (!/^\d+$/.test(lastEventId.trim()))
      throw invalid('Last-Event-ID must be a message number.', 'header: Last-Event-ID');
    return Number(lastEventId.trim());
  }
  return cursor;
}

export function openStream(ctx: Ctx) {
  const after = resumeFrom(ctx);
  const { res, state } = ctx;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
    'X-Request-Id': ctx.requestId,
    ...ctx.rateHeaders,
  });
  res.flushHeaders();
  // retry: how long EventSource clients wait before reconnecting.
  res.write('retry: 3000\n\n');
  let last = after ?? state.stream.seq;
  const send = (m: StreamMessage) => {
    if (m.seq <= last) return;
    last = m.seq;
    res.write(frame(m, state));
  };
  if (after !== undefined) {
    for (const m of state.stream.messages) if (m.seq > after) send(m);
  }
  state.stream.listeners.add(send);
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  keepalive.unref();
  const stop = () => {
    clearInterval(keepalive);
    state.stream.listeners.delete(send);
  };
  res.on('close', stop);
  if (state.options.streamMaxMs > 0) {
    const cap = setTimeout(() => {
      stop();
      res.end();
    }, state.options.streamMaxMs);
    cap.unref();
    res.on('close', () => clearTimeout(cap));
  }
  ctx.req.on('close', stop);
}
