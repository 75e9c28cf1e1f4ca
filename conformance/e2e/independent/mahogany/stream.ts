// GET /stream: Server-Sent Events with consecutive numbers, resumed by Last-Event-ID or ?cursor=.
import { type Ctx, invalid } from './http.ts';
import type { StreamMessage } from './state.ts';

function position(ctx: Ctx): number {
  const header = ctx.req.headers['last-event-id'];
  const fromHeader = (Array.isArray(header) ? header[0] : header)?.trim();
  const fromQuery = ctx.url.searchParams.get('cursor');
  const raw = fromHeader ? fromHeader : fromQuery;
  if (raw === null || raw === undefined) return 0;
  if (!/^\d{1,15}$/.test(raw)) {
    throw invalid(
      fromHeader ? 'Header Last-Event-ID is invalid' : 'Query parameter cursor is invalid',
      'cursor / Last-Event-ID: integer, minimum 0 (the last number read)',
    );
  }
  return Number(raw);
}

const frame = (m: StreamMessage) =>
  `id: ${m.seq}\nevent: ${m.kind}\ndata: ${JSON.stringify({ seq: m.seq, kind: m.kind, at: m.at, ...m.payload })}\n\n`;

/** Validates the position first (a refusal is a JSON failure envelope), then streams. */
export function openStream(ctx: Ctx): undefined {
  const after = position(ctx);
  const { res, state } = ctx;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
    'sap-request-id': ctx.requestId,
    'service-version': ctx.version,
  });
  res.write(`retry: 2000\n: mahogany status stream, resuming after ${after}\n\n`);
  let last = after;
  const send = (m: StreamMessage) => {
    if (m.seq <= last) return;
    last = m.seq;
    res.write(frame(m));
  };
  for (const m of state.stream) send(m);
  state.subscribers.add(send);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  heartbeat.unref?.();
  let limit: NodeJS.Timeout | undefined;
  const end = () => {
    clearInterval(heartbeat);
    if (limit) clearTimeout(limit);
    state.subscribers.delete(send);
    state.streams.delete(end);
    if (!res.writableEnded) res.end();
  };
  state.streams.add(end);
  if (state.options.streamMaxSeconds > 0) {
    limit = setTimeout(end, state.options.streamMaxSeconds * 1000);
    limit.unref?.();
  }
  res.on('close', end);
  return undefined;
}
