// The audit log: one sha256 hash chain per tenant (buddy-core digests over the entry's canonical JSON), and a
// proof on every page: the chain head signed with Ed25519 (buddy-sign), the public key beside it as a JWK.
import { createHash, sign } from 'node:crypto';
import { type Ctx, fail } from './http.ts';
import { instant, nextId, type Rec, type Store } from './state.ts';

/** RFC 8785 for the values an entry holds (strings, integers, null, plain objects). */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v as Rec)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Rec)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export function appendAudit(store: Store, tenant: string, actor: string, action: string, targetId: string) {
  const own = store.audit.filter((e) => e.tenant === tenant);
  const last = own[own.length - 1];
  const genesis = store.opts.auditGenesis === 'zeros' ? '0'.repeat(64) : null;
  const entry: Rec = {
    id: nextId(store, 'aud'),
    seq: own.length + 1,
    action,
    targetId,
    actor,
    at: instant(),
    prevHash: last ? last.hash : genesis,
  };
  entry.hash = createHash('sha256').update(canonical(entry)).digest('hex');
  store.audit.push({ ...entry, tenant });
}

/** GET /audit-log?limit=&offset=: newest first, offset paging with a `next` link, the signed head. */
export function auditLog(ctx: Ctx): Rec {
  const q = ctx.url.searchParams;
  const max = ctx.store.opts.pageLimit;
  const limit = q.has('limit') ? Number(q.get('limit')) : max;
  const offset = q.has('offset') ? Number(q.get('offset')) : 0;
  if (!Number.isInteger(limit) || limit < 1) fail('invalid_request', 'Bad limit', 'limit is a positive integer');
  if (!Number.isInteger(offset) || offset < 0) fail('invalid_request', 'Bad offset', 'offset is an integer >= 0');
  const size = Math.min(limit, max);
  const own = ctx.store.audit.filter((e) => e.tenant === ctx.tenant).reverse();
  const entries = own.slice(offset, offset + size).map(({ tenant: _t, ...e }) => e);
  const head = own[0]?.hash ?? null;
  const proof: Rec = {
    format: 'cassia-chain-v1',
    algorithm: 'sha256',
    covers: 'every entry: hash = sha256(RFC 8785 JSON of the entry without hash); prevHash links to the one before',
    headSeq: own[0]?.seq ?? 0,
    head,
    signatureAlgorithm: 'EdDSA',
    publicKey: ctx.store.signingKey.publicKey.export({ format: 'jwk' }),
  };
  if (head) proof.signature = sign(null, Buffer.from(head), ctx.store.signingKey.privateKey).toString('base64url');
  const more = offset + size < own.length;
  const next = more ? `/api/public/v1/audit-log?offset=${offset + size}&limit=${size}` : null;
  return { tenant: ctx.tenant, count: entries.length, total: own.length, offset, limit: size, next, entries, proof };
}
