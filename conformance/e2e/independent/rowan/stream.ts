// The status stream as the team's ASGI worker serves it: `id:` is the consecutive number, a comment every
// 20 s keeps the ALB from closing an idle socket, and the worker ends a stream after 5 minutes (clients resume).
import { ApiError, type Ctx } from './http-util.ts';
import type { RowanState, StreamEvent } from './state.ts';

/** The number after which to send: `?cursor` wins over `Last-Event-ID` (the explicit one). */
function startAfter(ctx: Ctx): number {
  const cursor = ctx.query.get('cursor');
  const raw = cursor ?? (ctx.req.headers['last-event-id'] as string | undefined);
  if (raw === undefined || raw === '') return 0;
  if (!/^[0-9]{1,15}$/.test(raw.trim())) {
    throw new ApiError(
      'invalid_request',
      cursor !== null ? 'cursor: an integer of at least 0.' : 'Last-Event-ID: a number.',
    );
  }
  return Number(raw.trim());
}

/** `stream` is `tenant:<id>` when the caller sent a valid token and tenant, else `public`. */
export function serveStream(ctx: Ctx, state: RowanState, stream: string): void {
  const after = startAfter(ctx);
  const { res } = ctx;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
    'X-Request-Id': ctx.requestId,
    ...ctx.headers,
  });
  res.write(': connected\nretry: 2000\n\n');
  const write = (e: StreamEvent): void => {
    res.write(`id: ${e.seq}\nevent: ${e.kind}\ndata: ${JSON.stringify({ seq: e.seq, kind: e.kind, ...e.data })}\n\n`);
  };
  for (const e of state.streams.get(stream) ?? []) if (e.seq > after) write(e);
  let listeners = state.listeners.get(stream);
  if (!listeners) {
    listeners = new Set();
    state.listeners.set(stream, listeners);
  }
  listeners.add(write);
  const keepAlive = setInterval(() => !res.writableEnded && res.write(': keep-alive\n\n'), state.options.keepAliveMs);
  const lifetime = setTimeout(() => res.end(), state.options.streamLifetimeMs);
  const done = (): void => {
    clearInterval(keepAlive);
    clearTimeout(lifetime);
    listeners?.delete(write);
  };
  res.on('close', done);
  ctx.req.on('close', done);
}
