// Server-Sent Events: one numbered log per tenant (read with a bearer token and the tenant header) and a
// public log whose messages name no tenant, connection or venue. A reader resumes after the number it sends
// as Last-Event-ID or ?cursor=; the log is kept whole in memory, so no resumption ever has a gap.
import type { ServerResponse } from 'node:http';
import { bearerClient } from './auth.ts';
import { type Ctx, halt } from './http.ts';
import type { Rec, Store } from './state.ts';

interface Message {
  seq: number;
  event: string;
  data: Rec;
}
interface Log {
  messages: Message[];
  readers: Set<ServerResponse>;
}

const logs = new WeakMap<Store, Map<string, Log>>();
const PUBLIC = '*public*';

function logOf(store: Store, key: string): Log {
  let byKey = logs.get(store);
  if (!byKey) {
    byKey = new Map();
    logs.set(store, byKey);
  }
  let log = byKey.get(key);
  if (!log) {
    log = { messages: [], readers: new Set() };
    byKey.set(key, log);
  }
  return log;
}

function write(res: ServerResponse, m: Message): void {
  res.write(`id: ${m.seq}\nevent: ${m.event}\ndata: ${JSON.stringify({ seq: m.seq, ...m.data })}\n\n`);
}

function append(log: Log, event: string, data: Rec): void {
  const m = { seq: log.messages.length + 1, event, data };
  log.messages.push(m);
  for (const r of log.readers) write(r, m);
}

/** Publishes a change of a tenant's connection: in full to the tenant, without its data to the public. */
export function publish(store: Store, tenant: string, event: string, data: Rec): void {
  append(logOf(store, tenant), event, { ...data, at: new Date().toISOString() });
  append(logOf(store, PUBLIC), event, {
    state: data.state,
    environment: data.environment,
    at: new Date().toISOString(),
  });
}

function resumeAfter(ctx: Ctx): number {
  const cursor = ctx.url.searchParams.get('cursor');
  const last = ctx.req.headers['last-event-id'];
  const raw = cursor ?? (typeof last === 'string' ? last.trim() : null);
  if (raw === null || raw === '') return 0;
  if (!/^\d+$/.test(raw)) halt('invalid_request', 'cursor must be an integer, minimum 0');
  return Number(raw);
}

/** GET /stream (public): the tenant's log when a valid token and a released tenant come with it. */
export function openStream(store: Store, ctx: Ctx): void {
  const after = resumeAfter(ctx);
  const tenant = ctx.req.headers['x-service-tenant'];
  const own = typeof tenant === 'string' && store.released.has(tenant) && bearerClient(store, ctx) !== undefined;
  const log = logOf(store, own ? tenant : PUBLIC);
  const res = ctx.res;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Request-Id': ctx.requestId,
    'Service-Version': ctx.version,
    ...ctx.rateHeaders,
  });
  res.write('retry: 3000\n\n');
  for (const m of log.messages) if (m.seq > after) write(res, m);
  log.readers.add(res);
  const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
  ping.unref();
  const done = () => {
    clearInterval(ping);
    log.readers.delete(res);
  };
  res.on('close', done);
  ctx.req.on('close', done);
}

/** Ends every open stream, so the servers can close. */
export function closeStreams(store: Store): void {
  for (const log of logs.get(store)?.values() ?? []) for (const r of log.readers) r.end();
}
