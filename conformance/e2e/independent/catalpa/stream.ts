// The public status stream (Server-Sent Events): one consecutive sequence for the whole deployment, every
// message kept, resumption by Last-Event-ID or ?cursor (Last-Event-ID wins when both are sent), and a
// ":keepalive" comment at a fixed interval so proxies keep the connection open.
import { ApiError, type Ctx, header } from './http.ts';
import type { State, StreamMessage } from './store.ts';
import { cursor } from './validate.ts';

export function publish(state: State, event: string, data: Record<string, unknown>): void {
  const message: StreamMessage = {
    id: state.messages.length + 1,
    event,
    data: { sequence: state.messages.length + 1, ...data },
  };
  state.messages.push(message);
  for (const listener of state.listeners) listener(message);
}

const frame = (m: StreamMessage): string => `id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;

export function stream(state: State, ctx: Ctx): void {
  const lastEventId = header(ctx, 'last-event-id');
  const query = ctx.url.searchParams.get('cursor');
  // Without a position the client gets only what happens from now on.
  let after = state.options.streamFromStart ? 0 : state.messages.length;
  if (lastEventId !== undefined) after = cursor(lastEventId.trim(), 'Last-Event-ID');
  else if (query !== null) after = cursor(query, 'cursor');
  if (!Number.isSafeInteger(after))
    throw new ApiError('invalid_request', 'cursor is too large.', 'Send the number of the last message read.');
  const res = ctx.res;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream;charset=UTF-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'X-Request-Id': ctx.requestId,
  });
  res.write(':keepalive\nretry: 3000\n\n');
  let sent = after;
  const send = (m: StreamMessage): void => {
    if (m.id <= sent) return;
    sent = m.id;
    res.write(frame(m));
  };
  for (const m of state.messages.slice(after)) send(m);
  state.listeners.add(send);
  const timer = setInterval(() => res.write(':keepalive\n\n'), state.options.keepAliveMs);
  state.timers.add(timer as unknown as ReturnType<typeof setTimeout>);
  const stop = (): void => {
    clearInterval(timer);
    state.timers.delete(timer as unknown as ReturnType<typeof setTimeout>);
    state.listeners.delete(send);
  };
  ctx.req.on('close', stop);
  res.on('close', stop);
}

/** Ends every open stream (at close()). */
export function endStreams(state: State): void {
  state.listeners.clear();
}
