// The public status stream: one global sequence (1, 2, 3, …), no tenant identity in messages. Resumption by
// Last-Event-ID or ?cursor (last number read); when both are sent, Last-Event-ID wins (the browser's own header).
import { ApiError, type Ctx } from './http-util.ts';
import type { State, StreamMessage } from './state.ts';

/**
 * Plain JSON by default; with streamEnvelope 'pubsub' each message is a Pub/Sub-style envelope whose `data` is the
 * base64 JSON payload (the payload of a stream message is not shown by the interface).
 */
export function publish(s: State, payload: Record<string, unknown>): void {
  const seq = s.stream.messages.length + 1;
  const publishTime = new Date().toISOString();
  const plain = { sequence: seq, ...payload, publishTime };
  const body =
    s.opts.streamEnvelope === 'pubsub'
      ? {
          message: {
            data: Buffer.from(JSON.stringify(plain)).toString('base64'),
            messageId: String(seq),
            publishTime,
            attributes: { type: String(payload.type) },
          },
        }
      : plain;
  const msg = { seq, data: JSON.stringify(body) };
  s.stream.messages.push(msg);
  for (const l of s.stream.listeners) l(msg);
}

function position(raw: string | null | undefined, name: string): number | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw))
    throw new ApiError('invalid_request', `Invalid value for ${name}.`, `${name}: integer, minimum 0`);
  return Number(raw);
}

export function openStream(s: State, ctx: Ctx): void {
  const header = ctx.req.headers['last-event-id'];
  const fromHeader = position(Array.isArray(header) ? header[0] : header, 'Last-Event-ID');
  const fromQuery = position(ctx.url.searchParams.get('cursor'), 'cursor');
  let last = fromHeader ?? fromQuery ?? s.stream.messages.length;
  const res = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
  });
  res.write('retry: 2000\n\n');
  const send = (m: StreamMessage) => {
    if (m.seq !== last + 1) return;
    last = m.seq;
    res.write(`id: ${m.seq}\nevent: status\ndata: ${m.data}\n\n`);
  };
  for (const m of s.stream.messages.slice(last)) send(m);
  s.stream.listeners.add(send);
  const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const stop = () => {
    clearInterval(ping);
    s.stream.listeners.delete(send);
  };
  // Cloud Run ends a request at its timeout: the stream then closes and the client resumes with Last-Event-ID.
  const cut = s.opts.streamMaxMs > 0 ? setTimeout(() => res.end(), s.opts.streamMaxMs) : undefined;
  res.on('close', () => clearTimeout(cut));
  res.on('close', stop);
  ctx.req.on('close', stop);
}

/** Ends every open stream (server close). */
export function closeStreams(s: State): void {
  s.stream.listeners.clear();
}
