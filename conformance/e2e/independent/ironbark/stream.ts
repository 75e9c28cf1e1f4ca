// GET /stream: Server-Sent Events from the outbox, one global consecutive sequence; resumption after
// Last-Event-ID (preferred) or ?cursor (the last number read). Without either, the stream starts live.

import type { StreamMessage } from './store.ts';
import type { App } from './types.ts';
import { ApiError, type Ctx } from './util.ts';

function parseCursor(v: string, name: string): number {
  if (!/^\d{1,15}$/.test(v.trim())) {
    throw new ApiError('invalid_request', `${name} must be an integer of at least 0`, `${name}: integer, minimum 0`);
  }
  return Number(v.trim());
}

export function stream(app: App, ctx: Ctx): void {
  const header = ctx.req.headers['last-event-id'];
  const lastEventId = Array.isArray(header) ? header[0] : header;
  const cursorParam = ctx.url.searchParams.get('cursor');
  let after: number;
  if (lastEventId !== undefined && lastEventId.trim() !== '') after = parseCursor(lastEventId, 'Last-Event-ID');
  else if (cursorParam !== null) after = parseCursor(cursorParam, 'cursor');
  else after = app.store.outbox.length;

  const { res, req } = ctx;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
    ...ctx.headers,
  });
  res.write(`: ironbark status stream, version ${ctx.version}\nretry: 2000\n\n`);
  let sent = after;
  const write = (m: StreamMessage) => {
    if (m.id <= sent) return;
    sent = m.id;
    res.write(`id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify({ Sequence: m.id, ...m.data })}\n\n`);
  };
  for (const m of app.store.outbox.slice(after)) write(m);
  const unsubscribe = app.store.subscribe(write);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15000);
  const end = () => {
    clearInterval(heartbeat);
    unsubscribe();
  };
  req.on('close', end);
  res.on('close', end);
}
