// The status stream: a fixed-size ring buffer per scope (each tenant, and the public scope), numbered
// from 1 within the scope. Resumption replays what the ring still holds after the number the client read.
// The public scope carries only the kind and time of a change: no tenant's data leaves without a token.
import type { ServerResponse } from 'node:http';
import { authenticate, rateLimit } from './auth.ts';
import { dispatch } from './deliveries.ts';
import { ApiError, type Ctx } from './http.ts';
import { LIMITS, nowIso, type Rec, type Store } from './state.ts';

interface Ring {
  seq: number;
  items: { seq: number; event: string; data: string }[];
  subscribers: Set<ServerResponse>;
}

const rings = new WeakMap<Store, Map<string, Ring>>();

function ring(store: Store, scope: string): Ring {
  let byScope = rings.get(store);
  if (!byScope) {
    byScope = new Map();
    rings.set(store, byScope);
  }
  let r = byScope.get(scope);
  if (!r) {
    r = { seq: 0, items: [], subscribers: new Set() };
    byScope.set(scope, r);
  }
  return r;
}

function frame(m: { seq: number; event: string; data: string }): string {
  return `id: ${m.seq}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
}

function push(store: Store, scope: string, event: string, payload: Rec): void {
  const r = ring(store, scope);
  r.seq += 1;
  const m = { seq: r.seq, event, data: JSON.stringify({ seq: r.seq, type: event, ...payload }) };
  r.items.push(m);
  if (r.items.length > LIMITS.ringSize) r.items.shift();
  for (const sub of r.subscribers) sub.write(frame(m));
}

/** One change: to the tenant's stream, redacted to the public one, and to the tenant's webhook receivers. */
export function emit(store: Store, tenant: string, event: string, connection: Rec): void {
  const at = nowIso();
  push(store, `tenant:${tenant}`, event, { at, tenant, connection });
  if (!store.opts.publicStreamQuiet) push(store, 'public', event, { at });
  dispatch(store, tenant, event, { connection });
}

function resumeFrom(ctx: Ctx): number {
  const cursor = ctx.url.searchParams.get('cursor');
  const last = ctx.req.headers['last-event-id'];
  const raw = cursor ?? (typeof last === 'string' ? last.trim() : null);
  if (raw === null || raw === '') return 0;
  if (!/^\d+$/.test(raw)) throw new ApiError('invalid_request', 'cursor must be an integer of at least 0');
  return Number(raw);
}

/** GET /stream: public; with a bearer token and tenant header it is that tenant's stream. */
export function stream(ctx: Ctx): void {
  let scope = 'public';
  if (ctx.req.headers.authorization !== undefined) {
    authenticate(ctx);
    scope = `tenant:${ctx.tenant}`;
  } else {
    rateLimit(ctx, `ip:${ctx.req.socket.remoteAddress}`);
  }
  const after = resumeFrom(ctx);
  const r = ring(ctx.store, scope);
  const res = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
    ...ctx.headers,
  });
  res.write('retry: 2000\n\n');
  for (const m of r.items) if (m.seq > after) res.write(frame(m));
  r.subscribers.add(res);
  const beat = setInterval(() => res.write(': keepalive\n\n'), 15_000);
  // A stream's lifetime budget: the client reconnects with Last-Event-ID, as the interface asks.
  const budget = ctx.store.opts.streamMaxMs > 0 ? setTimeout(() => res.end(), ctx.store.opts.streamMaxMs) : undefined;
  res.on('close', () => {
    clearInterval(beat);
    if (budget) clearTimeout(budget);
    r.subscribers.delete(res);
  });
}

/** Ends every open stream (close() of the deployment). */
export function closeStreams(store: Store): void {
  for (const r of rings.get(store)?.values() ?? []) for (const s of r.subscribers) s.end();
}
