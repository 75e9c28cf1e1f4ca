// ActionCable-like status stream over SSE: one public sequence, `event:` names, `id:` the consecutive number,
// resumption by Last-Event-ID (wins, as a browser's reconnection sends it) or ?cursor. Pings are comments.
import { ApiError, type Ctx } from './http-kit.ts';
import type { Beech, StreamEvent } from './state.ts';

function lastRead(ctx: Ctx): number {
  const header = ctx.req.headers['last-event-id'];
  const cursor = ctx.url.searchParams.get('cursor');
  const raw = typeof header === 'string' && header !== '' ? header : cursor;
  if (raw === null) return -1;
  if (!/^\d+$/.test(raw)) {
    throw new ApiError(
      'invalid_request',
      'cursor must be an integer of at least 0',
      `got ${raw.slice(0, 40)}`,
      'send the last number read',
    );
  }
  return Number(raw);
}

function frame(e: StreamEvent): string {
  return `id: ${e.seq}\nevent: ${e.name}\ndata: ${JSON.stringify({ seq: e.seq, event: e.name, ...e.data })}\n\n`;
}

export function stream(s: Beech, ctx: Ctx, open: Set<() => void>): void {
  const after = lastRead(ctx);
  ctx.res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Request-Id': ctx.requestId,
    'X-Accel-Buffering': 'no',
  });
  ctx.res.write(`: welcome ${ctx.requestId}\nretry: 2000\n\n`);
  let sent = after < 0 ? s.events.length : after;
  const push = (e: StreamEvent) => {
    if (e.seq <= sent) return;
    sent = e.seq;
    ctx.res.write(frame(e));
  };
  for (const e of s.events) push(e);
  s.listeners.add(push);
  const ping = setInterval(() => ctx.res.write(`: ping ${Math.floor(Date.now() / 1000)}\n\n`), 3000);
  const end = () => {
    clearInterval(ping);
    s.listeners.delete(push);
    open.delete(end);
    ctx.res.end();
  };
  open.add(end);
  ctx.req.on('close', end);
}
