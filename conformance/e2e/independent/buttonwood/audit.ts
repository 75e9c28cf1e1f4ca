// The audit trail: an append-only Slick table per tenant whose rows form a SHA-256 hash chain. Each row's hash
// covers the previous row's hash and its own columns joined by '|' (the team's `Seq(...).mkString("|")`), the
// first row links to 32 zero bytes. The answer pages with offset/limit (Slick drop/take), newest first, with an
// RFC 8288 `Link: rel="next"` header, and states the chain head and the formula as its proof of integrity.
import { createHash } from 'node:crypto';
import { bad, type Ctx, ok } from './http.ts';
import { type AuditEntry, instant, type Store } from './state.ts';

export const HASH_INPUT = '{prevHash}|{seq}|{at}|{tenant}|{action}|{subject}|{requestId}';

function digest(store: Store, text: string): string {
  return createHash('sha256').update(text).digest(store.options.auditEncoding);
}

function genesis(store: Store): string {
  return Buffer.alloc(32).toString(store.options.auditEncoding);
}

export function record(store: Store, tenant: string, action: string, subject: string, requestId: string): void {
  const chain = store.audit.get(tenant) ?? [];
  store.audit.set(tenant, chain);
  const prevHash = chain.at(-1)?.hash ?? genesis(store);
  const e = { seq: chain.length + 1, at: instant(), tenant, action, subject, requestId, prevHash, hash: '' };
  e.hash = digest(store, [prevHash, e.seq, e.at, tenant, action, subject, requestId].join('|'));
  chain.push(e as AuditEntry);
}

function intParam(ctx: Ctx, name: string, fallback: number): number {
  const v = ctx.query.get(name);
  if (v === null) return fallback;
  if (!/^\d+$/.test(v)) throw bad(`Query parameter ${name} must be a non-negative integer`);
  return Number(v);
}

/** GET /audit-log?limit=&offset= (or ?limit=&page= with numbered pages) */
export function auditLog(store: Store, ctx: Ctx): void {
  const { auditPageSize, auditMaxPageSize, auditEncoding, auditPaging, auditOldestFirst } = store.options;
  const requested = intParam(ctx, 'limit', auditPageSize);
  if (requested < 1) throw bad('Query parameter limit must be at least 1');
  const limit = Math.min(requested, auditMaxPageSize);
  const number = intParam(ctx, 'page', 1);
  if (number < 1) throw bad('Query parameter page must be at least 1');
  const offset = auditPaging === 'page' ? (number - 1) * limit : intParam(ctx, 'offset', 0);
  const chain = store.audit.get(ctx.tenant ?? '') ?? [];
  const ordered = auditOldestFirst ? chain : [...chain].reverse();
  const entries = ordered.slice(offset, offset + limit);
  const more = offset + limit < chain.length;
  if (more && auditPaging === 'offset') {
    ctx.headers.link = `</api/public/v1/audit-log?limit=${limit}&offset=${offset + limit}>; rel="next"`;
  }
  const totalPages = Math.max(1, Math.ceil(chain.length / limit));
  const page =
    auditPaging === 'page' ? { number, size: limit, totalPages, last: !more } : { offset, limit, total: chain.length };
  const head = chain.at(-1);
  ok(ctx, {
    tenant: ctx.tenant,
    order: auditOldestFirst ? 'oldest-first' : 'newest-first',
    entries,
    page,
    integrity: {
      scheme: 'hash-chain',
      algorithm: 'SHA-256',
      encoding: auditEncoding,
      input: HASH_INPUT,
      genesis: genesis(store),
      ...(head ? { headSeq: head.seq, headHash: head.hash } : {}),
    },
  });
}
