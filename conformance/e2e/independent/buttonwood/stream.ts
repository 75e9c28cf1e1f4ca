// GET /stream: the akka-stream Source of ServerSentEvents. With a valid token and tenant it is that tenant's
// stream (numbered consecutively per tenant); without, the public stream (numbered globally, carrying only the
// kind and time of each change, no tenant's data). Resumption by `?cursor=` or Last-Event-ID replays the
// journal after that number; without either the Source starts live. Keep-alive comments keep proxies open.
import { authenticate } from './auth.ts';
import { bad, type Ctx } from './http.ts';
import type { Store, StreamMessage } from './state.ts';

function cursorOf(ctx: Ctx): number | undefined {
  const q = ctx.query.get('cursor');
  const h = ctx.req.headers['last-event-id'];
  const v = q ?? (typeof h === 'string' ? h : undefined);
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v.trim())) throw bad('cursor must be an integer of at least 0');
  return Number(v.trim());
}

/** Which stream: the tenant's when the call is authenticated, else the public one. */
function scope(store: Store, ctx: Ctx): string | null {
  if (!ctx.req.headers.authorization) return null;
  authenticate(store, ctx);
  return ctx.tenant ?? null;
}

export function stream(store: Store, ctx: Ctx): void {
  const tenant = scope(store, ctx);
  const cursor = cursorOf(ctx);
  const journal = tenant ? (store.streams.get(tenant) ?? []) : store.publicStream;
  const { res } = ctx;
  res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
  });
  res.write(': connected\nretry: 3000\n\n');
  const send = (m: StreamMessage) =>
    res.write(
      `id: ${m.seq}\nevent: ${m.kind}\ndata: ${JSON.stringify({ seq: m.seq, kind: m.kind, ...m.payload })}\n\n`,
    );
  let last = cursor ?? (store.options.streamFromStart ? 0 : journal.length);
  for (const m of journal) {
    if (m.seq > last) {
      send(m);
      last = m.seq;
    }
  }
  const listener = (t: string | null, m: StreamMessage) => {
    if (t === tenant && m.seq > last) {
      send(m);
      last = m.seq;
    }
  };
  store.listeners.add(listener);
  const keepAlive = setInterval(() => !res.writableEnded && res.write(': keep-alive\n\n'), store.options.keepAliveMs);
  const stop = () => {
    clearInterval(keepAlive);
    store.listeners.delete(listener);
  };
  res.on('close', stop);
  store.closers.add(() => {
    stop();
    res.destroy();
  });
}
