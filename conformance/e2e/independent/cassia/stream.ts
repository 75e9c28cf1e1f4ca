// GET /stream as io.pedestal.http.sse serves it: `id`, `event`, `data` lines, heartbeat comments, and a
// resumption from the cursor or Last-Event-ID (the last number read) without gaps.
import { type Ctx, fail } from './http.ts';
import type { Rec } from './state.ts';

const frame = (e: Rec) =>
  `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify({ seq: e.seq, type: e.type, at: e.at, ...e.data })}\n\n`;

function resumeFrom(ctx: Ctx): number | undefined {
  const raw = ctx.url.searchParams.get('cursor') ?? ctx.req.headers['last-event-id'];
  if (raw === undefined || raw === null) return undefined;
  const s = String(raw).trim();
  if (!/^\d+$/.test(s)) return fail('invalid_request', 'Bad cursor', 'cursor is an integer, minimum 0');
  return Number(s);
}

export function stream(ctx: Ctx, open: Set<() => void>) {
  const from = resumeFrom(ctx);
  const { res, store } = ctx;
  res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.write(': connected\n\n');
  // Past messages after the cursor first, then live ones; the listener is added in the same tick, so no
  // message falls between the two.
  let last = from ?? (store.opts.streamFromStart ? 0 : store.events.length);
  for (const e of store.events) if (e.seq > last) res.write(frame(e));
  last = Math.max(last, store.events.length);
  const listener = (e: Rec) => {
    if (e.seq <= last) return;
    last = e.seq;
    res.write(frame(e));
  };
  store.listeners.add(listener);
  const beat = setInterval(() => res.write(': heartbeat\n\n'), store.opts.heartbeatMs);
  const stop = () => {
    clearInterval(beat);
    store.listeners.delete(listener);
    open.delete(stop);
    res.end();
  };
  open.add(stop);
  ctx.req.on('close', stop);
}
