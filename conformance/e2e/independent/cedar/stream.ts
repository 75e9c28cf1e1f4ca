// GET /api/public/v1/stream: Server-Sent Events with one global consecutive sequence; resumption by
// ?cursor= or Last-Event-ID (the last number read). Public, so messages carry no tenant data.
import type { Ctx } from './http-kit.ts';
import { ApiError } from './http-kit.ts';
import type { Store, StreamMessage } from './store.ts';
import { wholeNumber } from './validate.ts';

function frame(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.kind}\ndata: ${JSON.stringify({ seq: m.seq, kind: m.kind, at: m.at, ...m.data })}\n\n`;
}

/** tenant: the caller's own stream (a variant for authenticated callers); undefined: the public one. */
export function openStream(ctx: Ctx, store: Store, tenant?: string): void {
  const messages = tenant ? (store.tenantMessages.get(tenant) ?? []) : store.messages;
  if (tenant && !store.tenantMessages.has(tenant)) store.tenantMessages.set(tenant, messages);
  const listeners = tenant ? (store.tenantListeners.get(tenant) ?? new Set()) : store.listeners;
  if (tenant) store.tenantListeners.set(tenant, listeners);
  const cursor = wholeNumber(ctx.url.searchParams.get('cursor'), 'cursor');
  const headerRaw = ctx.req.headers['last-event-id'];
  const lastEventId = wholeNumber(typeof headerRaw === 'string' ? headerRaw.trim() : undefined, 'Last-Event-ID');
  if (ctx.url.searchParams.getAll('cursor').length > 1) throw new ApiError('invalid_request', 'cursor given twice');
  // The query wins over the header: a client that sets both names its position explicitly.
  const after = cursor ?? lastEventId ?? messages.length;
  ctx.res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  ctx.res.write(`: cedar status stream, resuming after ${after}\nretry: 2000\n\n`);
  let sent = after;
  const send = (m: StreamMessage): void => {
    if (m.seq !== sent + 1) return;
    ctx.res.write(frame(m));
    sent = m.seq;
  };
  for (const m of messages.slice(after)) send(m);
  listeners.add(send);
  const keepAlive = setInterval(() => ctx.res.write(': keep-alive\n\n'), 15_000);
  keepAlive.unref();
  ctx.res.on('close', () => {
    clearInterval(keepAlive);
    listeners.delete(send);
  });
}
