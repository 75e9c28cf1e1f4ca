// The public status stream (SSE): one consecutive sequence for the deployment, no tenant data in it.
// Each answer ends after streamMaxMs (Cloud Run's request timeout); clients resume with Last-Event-ID or cursor.
import type { State, StreamEvent } from './state.ts';
import { ApiError, type Ctx } from './util.ts';

export function publish(state: State, type: string, data: Record<string, unknown>): StreamEvent {
  const e = { seq: state.events.length + 1, type, data };
  state.events.push(e);
  for (const l of state.listeners) l(e);
  return e;
}

/** Last-Event-ID wins over ?cursor when both are sent (the header is what EventSource resends). */
function startAfter(ctx: Ctx): number {
  const header = ctx.req.headers['last-event-id'];
  const raw = typeof header === 'string' && header.trim() !== '' ? header.trim() : ctx.url.searchParams.get('cursor');
  if (raw === null) return 0;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new ApiError('invalid_request', 'cursor / Last-Event-ID must be an integer of at least 0.', 'CURSOR_INVALID');
  }
  return Number(raw);
}

function frame(e: StreamEvent): string {
  return `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify({ sequence: e.seq, type: e.type, ...e.data })}\n\n`;
}

export function openStream(state: State, ctx: Ctx): void {
  const after = startAfter(ctx);
  const { res } = ctx;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    ...ctx.headers,
  });
  res.write(`: quince status stream, request ${ctx.requestId}\nretry: 1000\n\n`);
  for (const e of state.events) if (e.seq > after) res.write(frame(e));
  const listener = (e: StreamEvent) => {
    if (e.seq > after) res.write(frame(e));
  };
  state.listeners.add(listener);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const end = setTimeout(() => res.end(), state.opts.streamMaxMs);
  const cleanup = () => {
    state.listeners.delete(listener);
    clearInterval(heartbeat);
    clearTimeout(end);
  };
  res.on('close', cleanup);
  res.on('finish', cleanup);
}
