// SSE via a StreamResponse-like writer: `id: <seq>` on every message, resume by ?cursor or Last-Event-ID.
import { ApiError, type Ctx, pyDumps } from './http.ts';
import type { Store } from './state.ts';

export function stream(s: Store, ctx: Ctx): void {
  const q = ctx.url.searchParams.get('cursor');
  const h = ctx.req.headers['last-event-id'];
  const raw = q ?? (typeof h === 'string' ? h : null);
  if (raw !== null && !/^\d+$/.test(raw))
    throw new ApiError('invalid_request', 'cursor must be an integer, minimum 0.');
  // res, not req: a request emits close once its body is read. A cursor given by the client wins; without one the client sees what happens from now on.
  let last = raw === null ? s.events.length : Number(raw);
  ctx.res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Request-Id': ctx.requestId,
  });
  ctx.res.write(': myrtle stream\nretry: 2000\n\n');
  const send = (e: { seq: number; event: string; data: unknown }) => {
    if (e.seq <= last) return;
    last = e.seq;
    ctx.res.write(`id: ${e.seq}\nevent: ${e.event}\ndata: ${pyDumps(e.data)}\n\n`);
  };
  for (const e of s.events) send(e);
  s.listeners.add(send);
  const ping = setInterval(() => ctx.res.write(': ping\n\n'), 15_000);
  ctx.res.on('close', () => {
    clearInterval(ping);
    s.listeners.delete(send);
  });
}
