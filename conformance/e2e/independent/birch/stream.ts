// GET /api/public/v1/stream: Server-Sent Events. Each message has `id: <seq>`; resumption from
// Last-Event-ID or ?cursor= (the last number read). Without either, the stream starts with new messages.
import type { EventBus } from './events.ts';
import { type Ctx, invalid } from './http-util.ts';

const KEEPALIVE_MS = 10_000;

function parseSeq(value: string, name: string): number {
  if (!/^\d{1,15}$/.test(value))
    throw invalid(`${name} must be an integer of at least 0.`, `${name}: integer, minimum 0`);
  return Number(value);
}

export function openStream(ctx: Ctx, bus: EventBus, openStreams: Set<() => void>): void {
  const cursorRaw = ctx.query.get('cursor');
  const lastIdRaw = ctx.req.headers['last-event-id'];
  const lastId = Array.isArray(lastIdRaw) ? lastIdRaw[0] : lastIdRaw;
  let from: number | null = null;
  if (cursorRaw !== null) from = parseSeq(cursorRaw, 'cursor');
  // The header wins over the query: it is what an EventSource sends after a reconnect.
  if (lastId !== undefined && lastId !== '') from = parseSeq(lastId.trim(), 'Last-Event-ID');

  const { res } = ctx;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
  });
  if (ctx.headOnly) {
    res.end();
    return;
  }
  res.write(`retry: 3000\n: birch stream ${ctx.requestId}\n\n`);
  let last = from ?? bus.seq;
  const write = (e: { seq: number; event: string; at: string; data: Record<string, unknown> }) => {
    if (e.seq <= last) return;
    last = e.seq;
    const payload = { sequence: e.seq, kind: e.event, occurred_at: e.at, ...e.data };
    res.write(`id: ${e.seq}\nevent: ${e.event}\ndata: ${JSON.stringify(payload)}\n\n`);
  };
  const unsubscribe = bus.subscribe(write);
  for (const e of bus.since(last)) write(e);
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  const close = () => {
    clearInterval(keepalive);
    unsubscribe();
    openStreams.delete(close);
    if (!res.writableEnded) res.end();
  };
  openStreams.add(close);
  ctx.req.on('close', close);
  res.on('close', close);
}
