// The public status stream: one global sequence from 1000, resumption by ?cursor or Last-Event-ID
// (cursor wins), no heartbeats, every stream closed by the server after streamMaxMs.
import type { Ctx } from './http.ts';
import { allowQuery, HttpError } from './http.ts';
import type { Store, StreamEvent } from './state.ts';

function parsePosition(text: string, what: string): number {
  if (!/^\d{1,15}$/.test(text.trim())) throw new HttpError('invalid_request', `${what} must be an integer, minimum 0.`);
  return Number(text.trim());
}

function frame(event: StreamEvent): string {
  const payload = { sequence: event.id, type: event.type, occurredAt: event.occurredAt, data: event.data };
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(payload)}\n\n`;
}

export function openStream(ctx: Ctx, store: Store, streamMaxMs: number): void {
  allowQuery(ctx, ['cursor']);
  const cursorText = ctx.query.get('cursor');
  const lastEventId = ctx.req.headers['last-event-id'];
  let after: number | undefined;
  if (cursorText !== null) after = parsePosition(cursorText, "The query parameter 'cursor'");
  else if (typeof lastEventId === 'string' && lastEventId !== '') after = parsePosition(lastEventId, 'Last-Event-ID');
  const newest = store.nextSequence - 1;
  if (after !== undefined && after > newest) {
    throw new HttpError('invalid_request', `The position ${after} is beyond the newest message ${newest}.`);
  }
  const { res } = ctx;
  res.statusCode = 200;
  res.setHeader('Server', 'Kestrel');
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Request-Id', ctx.requestId);
  res.setHeader('Service-Version', ctx.version);
  if (ctx.method === 'HEAD') {
    res.end();
    return;
  }
  res.flushHeaders();
  res.write('retry: 1000\n\n');
  // Backlog and live messages share one path so nothing is lost or doubled between them.
  let last = after ?? newest;
  const send = (event: StreamEvent): void => {
    if (event.id <= last) return;
    last = event.id;
    res.write(frame(event));
  };
  for (const event of store.events) send(event);
  store.listeners.add(send);
  const timer = setTimeout(() => res.end(), streamMaxMs);
  timer.unref();
  const stop = (): void => {
    clearTimeout(timer);
    store.listeners.delete(send);
  };
  res.on('close', stop);
  ctx.req.on('close', stop);
}
