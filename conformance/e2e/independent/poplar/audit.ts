// The audit log: one Firestore document per change in tenants/{tenant}/auditEntries, hash-chained
// (hash = sha256 hex of prevHash + "\n" + canonical JSON of the entry without hash), and a checkpoint of the
// newest entry signed with Ed25519 (verify with the public key from GET /api/public/v1/audit-log/checkpoint-keys).
import { createHash, sign } from 'node:crypto';
import { ApiError, autoId, type Ctx, canonical, ok } from './http-util.ts';
import type { AuditEntry, State } from './state.ts';

const GENESIS = '0'.repeat(64);

export function entryHash(e: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256')
    .update(`${e.prevHash}\n${canonical(e)}`)
    .digest('hex');
}

export function record(s: State, ctx: Ctx, tenant: string, action: string, resource: string): void {
  const list = s.audit.get(tenant) ?? [];
  s.audit.set(tenant, list);
  const prev = list[list.length - 1];
  const base = {
    id: autoId(),
    seq: list.length + 1,
    tenant,
    action,
    resource,
    actor: ctx.clientId ?? 'unknown',
    requestId: ctx.requestId,
    createTime: new Date().toISOString(),
    prevHash: prev ? prev.hash : GENESIS,
  };
  list.push({ ...base, hash: entryHash(base) });
}

function checkpoint(s: State, tenant: string, head: AuditEntry | undefined) {
  const body = { tenant, seq: head?.seq ?? 0, hash: head?.hash ?? GENESIS, signedAt: new Date().toISOString() };
  const signature = sign(null, Buffer.from(canonical(body)), s.checkpointKey.privateKey).toString('base64');
  return {
    ...body,
    algorithm: 'Ed25519',
    keyId: s.checkpointKey.kid,
    signature,
    publicKeys: '/api/public/v1/audit-log/checkpoint-keys',
  };
}

/** GET /audit-log?limit=&pageToken= : newest first (orderBy seq desc; option: oldest first), pageToken/nextPageToken paging. */
export function listAudit(s: State, ctx: Ctx, tenant: string): void {
  const q = ctx.url.searchParams;
  const rawLimit = q.get('limit') ?? q.get('pageSize');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
    throw new ApiError('invalid_request', 'Invalid value for parameter "limit".', 'limit: integer 1 to 500');
  }
  const list = s.audit.get(tenant) ?? [];
  const oldestFirst = s.opts.auditOldestFirst;
  // The page token names the seq of the last entry of the previous page (AIP-158: opaque to clients).
  let boundary = oldestFirst ? 0 : list.length + 1;
  const token = q.get('pageToken');
  if (token !== null) {
    const n = Number(Buffer.from(token, 'base64url').toString('utf8').replace(/^seq:/, ''));
    if (!Number.isInteger(n) || n < 0) throw new ApiError('invalid_request', 'Invalid pageToken.');
    boundary = n;
  }
  const ordered = oldestFirst ? list.filter((e) => e.seq > boundary) : list.filter((e) => e.seq < boundary).reverse();
  const page = ordered.slice(0, limit);
  const last = page[page.length - 1];
  const more = page.length < ordered.length && last !== undefined;
  ok(ctx, {
    tenant,
    count: page.length,
    order: oldestFirst ? 'oldest-first' : 'newest-first',
    entries: page,
    nextPageToken: more ? Buffer.from(`seq:${last.seq}`).toString('base64url') : null,
    chain: {
      algorithm: 'sha256',
      genesis: GENESIS,
      formula: 'sha256_hex(prevHash + "\\n" + canonical_json(entry without hash))',
    },
    checkpoint: checkpoint(s, tenant, list[list.length - 1]),
  });
}

/** GET /audit-log/checkpoint-keys: public, a JWK set of the checkpoint signing keys. */
export function checkpointKeys(s: State, ctx: Ctx): void {
  const jwk = s.checkpointKey.publicKey.export({ format: 'jwk' });
  ok(ctx, { keys: [{ ...jwk, kid: s.checkpointKey.kid, alg: 'EdDSA', use: 'sig' }] });
}
