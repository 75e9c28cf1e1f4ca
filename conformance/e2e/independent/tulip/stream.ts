// The status stream: per tenant a numbered log (the team's outbox table) and a Topic fanning out new
// messages, served as text/event-stream with `id:` numbers consecutive per tenant. The stream is public: with
// a bearer token and x-service-tenant it carries that tenant's status changes; without, it carries only
// keep-alive comments (fs2's `ServerSentEvent` heartbeat), so no tenant's data reaches an anonymous reader.
import { authenticate, resolveTenant } from './auth.ts';
import { type Ctx, header, invalid, print, type Rec } from './http.ts';
import type { Store, StreamMessage } from './state.ts';

export const STREAM_EVENT = 'connection.status';
const KEEP_ALIVE_MS = 15_000;

export function publish(store: Store, tenant: string, payload: Rec): void {
  const log = store.streamLog.get(tenant) ?? [];
  store.streamLog.set(tenant, log);
  const msg: StreamMessage = { seq: log.length + 1, event: STREAM_EVENT, data: '' };
  msg.data = print({ seq: msg.seq, ...payload });
  log.push(msg);
  for (const l of store.listeners.get(tenant) ?? []) l(msg);
}

function resumeFrom(ctx: Ctx): number | undefined {
  const raw = ctx.query.get('cursor') ?? header(ctx, 'last-event-id');
  if (raw === null || raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim())) throw invalid('cursor / Last-Event-ID: integer, minimum 0');
  return Number(raw.trim());
}

export function openStream(store: Store, ctx: Ctx): void {
  const after = resumeFrom(ctx);
  const hasCredentials = header(ctx, 'authorization') !== undefined || header(ctx, 'x-service-tenant') !== undefined;
  if (hasCredentials) {
    authenticate(store, ctx);
    resolveTenant(store, ctx);
  }
  const { res } = ctx;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
  });
  // fs2's SSE encoder: a reconnection delay first, then events and heartbeat comments.
  res.write('retry: 3000\n: connected\n\n');
  const named = !store.options.unnamedStreamEvents;
  const write = (m: StreamMessage) =>
    res.write(`id: ${m.seq}\n${named ? `event: ${m.event}\n` : ''}data: ${m.data}\n\n`);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  const tenant = ctx.tenant;
  let listeners: Set<(m: StreamMessage) => void> | undefined;
  if (tenant) {
    // Replay and subscribe in one synchronous step, so no message falls between them.
    if (after !== undefined) for (const m of store.streamLog.get(tenant) ?? []) if (m.seq > after) write(m);
    listeners = store.listeners.get(tenant) ?? new Set();
    store.listeners.set(tenant, listeners);
    listeners.add(write);
  }
  const close = () => {
    clearInterval(beat);
    listeners?.delete(write);
  };
  res.on('close', close);
  ctx.req.on('close', close);
}
