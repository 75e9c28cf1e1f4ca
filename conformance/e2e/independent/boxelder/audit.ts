// The audit log: one hash chain per tenant. Each entry's hash is SHA-256 (lowercase hex) over its fields
// joined by `|` in a fixed order, starting with the previous entry's hash (64 zeros before the first):
// the Zig team formats a fixed line into a stack buffer rather than canonicalising JSON.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, ok } from './http.ts';
import { BASE, LIMITS, nowIso, type Rec, type Store } from './state.ts';

export const GENESIS = '0'.repeat(64);
export const HASH_INPUT = '{prev_hash}|{seq}|{at}|{action}|{resource}|{actor}';

export function entryHash(e: Rec): string {
  const line = [e.prev_hash, e.seq, e.at, e.action, e.resource, e.actor].join('|');
  return createHash('sha256').update(line).digest('hex');
}

export function record(store: Store, tenant: string, actor: string, action: string, resource: string): void {
  const key = store.opts.auditGlobalChain ? '*' : tenant;
  const chain = store.audit.get(key) ?? [];
  const last = chain[chain.length - 1];
  const entry: Rec = { seq: chain.length + 1, at: nowIso(), action, resource, actor, prev_hash: last?.hash ?? GENESIS };
  entry.hash = entryHash(entry);
  chain.push(store.opts.auditGlobalChain ? { ...entry, tenant } : entry);
  store.audit.set(key, chain);
}

function positiveInt(v: string | null, name: string, fallback: number): number {
  if (v === null) return fallback;
  if (!/^\d+$/.test(v)) throw new ApiError('invalid_request', `${name} must be a non-negative integer`);
  return Number(v);
}

/**
 * GET /audit-log?limit=&after= (oldest first) or ?limit=&before= (newest first): a page of at most
 * LIMITS.maxAuditPage entries, `next_page` the path of the following one (null at the end).
 */
export function auditLog(ctx: Ctx): void {
  const q = ctx.url.searchParams;
  const requested = positiveInt(
    q.get('limit'),
    'limit',
    Math.min(LIMITS.defaultAuditPage, ctx.store.opts.auditMaxPage),
  );
  if (requested < 1) throw new ApiError('invalid_request', 'limit must be at least 1');
  const max = ctx.store.opts.auditMaxPage;
  if (requested > max && ctx.store.opts.auditLimitStrict)
    throw new ApiError('invalid_request', `limit must be 1 to ${max}`);
  const limit = Math.min(requested, max);
  const global = ctx.store.opts.auditGlobalChain;
  const all = ctx.store.audit.get(global ? '*' : (ctx.tenant ?? '')) ?? [];
  // Global chain: the tenant sees its own entries, whose links may point at entries of other tenants.
  const chain = global ? all.filter((e) => e.tenant === ctx.tenant) : all;
  const top = chain[chain.length - 1]?.seq ?? 0;
  const newest = ctx.store.opts.auditNewestFirst;
  let page: Rec[];
  let next: string | null = null;
  if (newest) {
    const before = positiveInt(q.get('before'), 'before', top + 1);
    page = chain
      .filter((e) => e.seq < before)
      .slice(-limit)
      .reverse();
    const last = page[page.length - 1];
    if (last && last.seq > (chain[0]?.seq ?? 0)) next = `${BASE}/audit-log?limit=${limit}&before=${last.seq}`;
  } else {
    const after = positiveInt(q.get('after'), 'after', 0);
    page = chain.filter((e) => e.seq > after).slice(0, limit);
    const last = page[page.length - 1];
    if (last && last.seq < top) next = `${BASE}/audit-log?limit=${limit}&after=${last.seq}`;
  }
  const head = chain[chain.length - 1];
  ok(ctx, {
    tenant: ctx.tenant,
    order: newest ? 'newest_first' : 'oldest_first',
    count: page.length,
    entries: page,
    next_page: next,
    proof: {
      type: 'hash_chain',
      algorithm: 'sha256',
      encoding: 'hex',
      input: HASH_INPUT,
      genesis: GENESIS,
      head_seq: head?.seq ?? 0,
      head_hash: head?.hash ?? GENESIS,
    },
  });
}
