// The audit log: one SHA-256 hash chain per tenant. Each entry's hash is over the RFC 8785 form of the entry
// without its hash; "prev-hash" links to the entry before (the first links to a per-tenant genesis digest).
// Read by offset (next.jdbc's LIMIT/OFFSET habit), newest first unless configured oldest first.
import { createHash } from 'node:crypto';
import { type Ctx, canonical, ok } from './http.ts';
import { instant, type Rec, type Store, uuid } from './state.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const genesis = (tenant: string) => sha256(`blackthorn-genesis:${tenant}`);
const MAX_LIMIT = 100;

export function record(store: Store, tenant: string, action: string, resourceId: string, actor = 'unknown') {
  const chain = store.audit.get(tenant) ?? [];
  const prev = chain.at(-1);
  const entry: Rec = {
    seq: chain.length + 1,
    id: uuid(),
    at: instant(),
    action,
    actor,
    'resource-id': resourceId,
    'prev-hash': prev ? prev.hash : genesis(tenant),
  };
  entry.hash = sha256(canonical(entry));
  chain.push(entry);
  store.audit.set(tenant, chain);
}

function intParam(ctx: Ctx, name: string, fallback: number, min: number): number {
  const raw = ctx.url.searchParams.get(name);
  const n = raw === null ? Number.NaN : Number.parseInt(raw, 10);
  return Number.isFinite(n) && n >= min ? n : fallback;
}

export function listAudit(store: Store, ctx: Ctx) {
  const tenant = ctx.tenant ?? '';
  const chain = store.audit.get(tenant) ?? [];
  // A larger limit is clamped to the page maximum, not refused.
  const limit = Math.min(MAX_LIMIT, intParam(ctx, 'limit', store.opts.auditDefaultLimit, 1));
  const offset = intParam(ctx, 'offset', 0, 0);
  const ordered = store.opts.auditOldestFirst ? chain : [...chain].reverse();
  const entries = ordered.slice(offset, offset + limit);
  const head = chain.at(-1);
  const next = offset + limit < chain.length ? offset + limit : null;
  ok(ctx, {
    tenant,
    order: store.opts.auditOldestFirst ? 'oldest-first' : 'newest-first',
    offset,
    limit,
    total: chain.length,
    'next-offset': next,
    entries,
    proof: {
      scheme: 'blackthorn-hash-chain/v1',
      digest: 'sha-256',
      'entry-hash-input': 'RFC 8785 JSON of the entry without "hash"',
      'genesis-hash': genesis(tenant),
      'head-seq': head ? head.seq : 0,
      'head-hash': head ? head.hash : genesis(tenant),
    },
  });
}
