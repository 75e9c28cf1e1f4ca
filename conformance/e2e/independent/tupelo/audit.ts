// Audit log: KV entries ['audit', tenant, seq], each hash-linked to the one before; the head is signed
// with an Ed25519 key whose public half is served in every proof (and at /.well-known/audit-key.json).
// Verify: for entries oldest first, hash = sha256_hex(prevHash + "\n" + canonicalJSON(entry without hash)),
// prevHash of the first is 64 zeros; the last hash equals proof.headHash; Ed25519-verify proof.signature
// (base64url) over "tupelo-audit-head.v1|" + tenant + "|" + headSeq + "|" + headHash with proof.publicKey.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { ApiError, canonical } from './http.ts';
import type { App } from './state.ts';

const KEYS = generateKeyPairSync('ed25519');
export const AUDIT_PUBLIC_JWK = { ...KEYS.publicKey.export({ format: 'jwk' }), kid: 'tupelo-audit-1', alg: 'EdDSA' };
const ZERO = '0'.repeat(64);

export interface AuditEntry {
  seq: number;
  id: string;
  at: string;
  action: string;
  actor: string;
  target: string;
  requestId: string;
  idempotencyKey?: string;
  prevHash: string;
  hash: string;
}

export function appendAudit(
  app: App,
  tenant: string,
  e: { action: string; actor: string; target: string; requestId: string; idempotencyKey?: string },
): void {
  const seq = app.kv.sum(['audit-seq', tenant], 1);
  const prev = app.kv.get<AuditEntry>(['audit', tenant, seq - 1])?.value;
  const body = { seq, id: app.kv.nextStamp(), at: new Date().toISOString(), ...e, prevHash: prev?.hash ?? ZERO };
  const hash = createHash('sha256')
    .update(`${body.prevHash}\n${canonical(body)}`)
    .digest('hex');
  app.kv.set(['audit', tenant, seq], { ...body, hash });
}

function proof(app: App, tenant: string) {
  const all = app.kv.list<AuditEntry>(['audit', tenant]);
  const head = all[all.length - 1]?.value;
  const headSeq = head?.seq ?? 0;
  const headHash = head?.hash ?? ZERO;
  const message = `tupelo-audit-head.v1|${tenant}|${headSeq}|${headHash}`;
  return {
    algorithm: 'sha256-chain+Ed25519',
    headSeq,
    headHash,
    genesisHash: ZERO,
    signedMessage: message,
    signature: sign(null, Buffer.from(message), KEYS.privateKey).toString('base64url'),
    publicKey: AUDIT_PUBLIC_JWK,
    verify:
      'hash = sha256_hex(prevHash + "\\n" + canonical JSON of the entry without hash); Ed25519 over signedMessage',
  };
}

/** GET /audit-log?limit=&cursor= ; newest first by default, cursor = the seq to continue after. */
export function readAudit(app: App, tenant: string, query: URLSearchParams) {
  const limitRaw = query.get('limit') ?? '20';
  if (!/^\d+$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 200) {
    throw new ApiError('invalid_request', 'limit must be an integer from 1 to 200.');
  }
  const cursorRaw = query.get('cursor');
  if (cursorRaw !== null && !/^\d+$/.test(cursorRaw))
    throw new ApiError('invalid_request', 'cursor must be an integer.');
  const oldest = app.opts.auditOldestFirst;
  let all = app.kv.list<AuditEntry>(['audit', tenant], !oldest).map((x) => x.value);
  if (cursorRaw !== null) {
    const c = Number(cursorRaw);
    all = all.filter((x) => (oldest ? x.seq > c : x.seq < c));
  }
  const limit = Number(limitRaw);
  const entries = all.slice(0, limit);
  const last = entries[entries.length - 1];
  const nextCursor = all.length > limit && last ? String(last.seq) : null;
  return {
    tenant,
    order: oldest ? 'oldest-first' : 'newest-first',
    count: entries.length,
    entries,
    nextCursor,
    proof: proof(app, tenant),
  };
}
