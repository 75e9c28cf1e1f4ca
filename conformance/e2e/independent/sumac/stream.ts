// GET /stream: one public sequence of status messages (no tenant data: ids and states only), numbered
// from 1. ?cursor= wins over Last-Event-ID; without either the stream starts with what comes next.
import type { State, StreamMessage } from './state.ts';
import { ApiError, type Ctx, invalid } from './support.ts';

const HEARTBEAT_MS = 15_000;

function position(ctx: Ctx): number | null {
  const cursor = ctx.url.searchParams.get('cursor');
  if (cursor !== null) {
    if (!/^\d+$/.test(cursor)) throw invalid('cursor', 'The cursor field must be an integer of at least 0.');
    return Number(cursor);
  }
  const raw = ctx.req.headers['last-event-id'];
  const last = Array.isArray(raw) ? raw[0] : raw;
  if (last === undefined || last === '') return null;
  if (!/^\d+$/.test(last.trim())) throw invalid('Last-Event-ID', 'The Last-Event-ID header must be a message number.');
  return Number(last.trim());
}

/** connection.created -> App\\Events\\ConnectionCreated, the class a Laravel broadcast names. */
function className(event: string): string {
  const words = event.split(/[._]/).map((w) => (w[0] ?? '').toUpperCase() + w.slice(1));
  return `App\\Events\\${words.join('')}`;
}

function frame(m: StreamMessage, classes: boolean): string {
  const event = classes ? className(m.event) : m.event;
  return `id: ${m.seq}\nevent: ${event}\ndata: ${JSON.stringify({ sequence: m.seq, event, ...m.data })}\n\n`;
}

export function openStream(state: State, ctx: Ctx): void {
  const from = position(ctx);
  if (from !== null && !Number.isSafeInteger(from)) throw new ApiError('invalid_request', 'The cursor is too large.');
  const { res } = ctx;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'X-Request-Id': ctx.requestId,
  });
  res.write('retry: 3000\n\n');
  let sent = from ?? state.stream.length;
  const push = (m: StreamMessage) => {
    if (m.seq <= sent) return;
    sent = m.seq;
    res.write(frame(m, state.opts.classEventNames === true));
  };
  for (const m of state.stream.slice(sent)) push(m);
  state.listeners.add(push);
  const beat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  beat.unref();
  const stop = () => {
    clearInterval(beat);
    state.listeners.delete(push);
  };
  res.on('close', stop);
  ctx.req.on('close', stop);
}
