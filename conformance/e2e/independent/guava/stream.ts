// Server-Sent Events over Mojo-style non-blocking writes: a caller with a token and a released tenant reads
// that tenant's own numbered sequence with full payloads; everyone else reads the public sequence, which
// names only the connection and its state. Each sequence is numbered 1, 2, 3... without gaps, so
// a cursor or Last-Event-ID resumes exactly after the last message read. Payloads are Mojo::JSON text.
import { bearerClient } from './auth.ts';
import { ApiError, type Ctx, mojoJson } from './http.ts';
import type { Rec, Store } from './state.ts';

/** Records a state change on the public and the tenant's sequence and wakes the open streams. */
export function publish(store: Store, tenant: string, kind: string, connection: Rec): void {
  const at = new Date().toISOString();
  const pub = { seq: store.events.length + 1, kind, connectionId: connection.id, state: connection.state, at };
  store.events.push(pub);
  const own = store.tenantEvents.get(tenant) ?? [];
  store.tenantEvents.set(tenant, own);
  own.push({ seq: own.length + 1, kind, tenant, connection: { ...connection }, at });
  for (const listener of store.listeners) listener(pub);
}

function startAfter(ctx: Ctx): number {
  const cursor = ctx.query.get('cursor');
  const lastId = ctx.req.headers['last-event-id'];
  const raw = cursor ?? (Array.isArray(lastId) ? lastId[0] : lastId);
  if (raw === undefined || raw === '') return 0;
  if (!/^\d+$/.test(raw.trim())) {
    const where = cursor !== null ? '/query/cursor' : '/header/Last-Event-ID';
    throw new ApiError('invalid_request', 'Invalid resume position.', `${where}: Expected integer, minimum 0.`);
  }
  return Number(raw.trim());
}

export function openStream(store: Store, ctx: Ctx): void {
  let after = startAfter(ctx);
  const rawTenant = ctx.req.headers['x-service-tenant'];
  const tenant = (Array.isArray(rawTenant) ? rawTenant[0] : rawTenant)?.trim();
  const own = tenant && store.released.has(tenant) && bearerClient(store, ctx.req) ? tenant : undefined;
  const source = () => (own ? (store.tenantEvents.get(own) ?? []) : store.events);
  const res = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
  });
  // Clients reconnect after two seconds; the comment line flushes the headers at once.
  res.write(': guava status stream\nretry: 2000\n\n');
  const flush = () => {
    const list = source();
    while (after < list.length) {
      const ev = list[after];
      after += 1;
      if (!ev) continue;
      res.write(`id: ${ev.seq}\nevent: ${ev.kind}\ndata: ${mojoJson(ev)}\n\n`);
    }
  };
  flush();
  const listener = () => flush();
  store.listeners.add(listener);
  // Mojo's inactivity timeout would close an idle stream; a heartbeat comment keeps proxies from doing it.
  const beat = setInterval(() => res.write(': keepalive\n\n'), 15_000);
  store.timers.add(beat);
  const stop = () => {
    store.listeners.delete(listener);
    clearInterval(beat);
    store.timers.delete(beat);
  };
  ctx.req.on('close', stop);
  res.on('close', stop);
}
