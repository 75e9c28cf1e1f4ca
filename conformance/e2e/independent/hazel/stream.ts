// The public status stream (SSE). One sequence for the whole service, numbered from 1; payloads carry
// no tenant data (the stream is public): the connection id, connector, environment and state only.
import type { Ctx } from './http-kit.ts';
import { ApiError, baseHeaders } from './http-kit.ts';
import type { State, StreamMessage } from './store.ts';

// Spring's SseEmitter spelling: no space after the field colon (`id:5`), which SSE allows
function frame(m: StreamMessage): string {
  return `id:${m.seq}\nevent:${m.event}\ndata:${m.data}\n\n`;
}

export function publish(state: State, event: string, payload: Record<string, unknown>): void {
  const s = state.stream;
  s.seq++;
  const message: StreamMessage = { seq: s.seq, event, data: JSON.stringify({ sequence: s.seq, ...payload }) };
  s.kept.push(message);
  if (s.kept.length > state.options.streamRetention) s.kept.splice(0, s.kept.length - state.options.streamRetention);
  const text = frame(message);
  for (const res of s.clients) res.write(text);
}

function lastRead(ctx: Ctx): number {
  const header = ctx.req.headers['last-event-id'];
  const fromHeader = (Array.isArray(header) ? header[0] : header)?.trim();
  const fromQuery = ctx.url.searchParams.get('cursor');
  // Last-Event-ID wins: it is what a reconnecting EventSource sends, always the newer position
  const raw = fromHeader !== undefined && fromHeader !== '' ? fromHeader : fromQuery;
  if (raw === null || raw === undefined) return -1;
  if (!/^\d+$/.test(raw)) {
    throw new ApiError('invalid_request', 'The cursor must be a whole number of at least 0.', {
      hint: 'Send the number of the last message read (cursor or Last-Event-ID).',
    });
  }
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : Number.MAX_SAFE_INTEGER;
}

/**
 * GET /stream. Without a position, only new messages come. With one, the kept messages after it come
 * first, then live ones: written in one synchronous step, so nothing is lost or sent twice between.
 */
export function openStream(state: State, ctx: Ctx): void {
  const after = lastRead(ctx);
  const oldest = state.stream.kept[0];
  if (after >= 0 && oldest && after + 1 < oldest.seq) {
    // only the newest messages are kept: resuming from here would skip some, so say it instead of
    // delivering a stream with a gap the client cannot see
    throw new ApiError('invalid_request', 'The stream can no longer be resumed from this position.', {
      detail: `Messages after ${after} up to ${oldest.seq - 1} are no longer kept; the oldest kept is ${oldest.seq}.`,
      hint: 'Re-read GET /api/public/v1/connections, then open the stream without a cursor.',
    });
  }
  ctx.res.writeHead(200, {
    ...baseHeaders(ctx),
    'Content-Type': 'text/event-stream; charset=utf-8',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  if (ctx.method === 'HEAD') {
    ctx.res.end();
    return;
  }
  const s = state.stream;
  let text = 'retry:3000\n\n';
  if (after >= 0) for (const m of s.kept) if (m.seq > after) text += frame(m);
  ctx.res.write(text);
  s.clients.add(ctx.res);
  ctx.req.socket.setTimeout(0);
  const drop = () => s.clients.delete(ctx.res);
  ctx.res.on('close', drop);
  ctx.req.on('close', drop);
}

export function keepAlive(state: State): void {
  for (const res of state.stream.clients) res.write(':keep-alive\n\n');
}

export function closeStreams(state: State): void {
  for (const res of state.stream.clients) res.end();
  state.stream.clients.clear();
}
