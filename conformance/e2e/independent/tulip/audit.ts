// The audit log: a hash chain per tenant (each entry's `hash` is SHA-256 hex over the RFC 8785 JSON of the
// entry without `hash`, and names the previous entry's hash in `prevHash`), and a chain head signed with the
// service's Ed25519 key. The signed text is `${tenant}|${headSeq}|${headHash}`; the public key is served as a
// JWK beside every signature and as a JWK set at GET /api/public/v1/audit-log/keys.
import { createHash, randomUUID, sign } from 'node:crypto';
import { type Ctx, invalid, ok, type Rec } from './http.ts';
import { canonical } from './idempotency.ts';
import type { Store } from './state.ts';

export function record(store: Store, ctx: Ctx, action: string, resourceType: string, resourceId: string): void {
  const chain = store.audit.get(ctx.tenant) ?? [];
  store.audit.set(ctx.tenant, chain);
  const prev = chain[chain.length - 1];
  const entry: Rec = {
    id: randomUUID(),
    seq: chain.length + 1,
    at: store.now(),
    tenant: ctx.tenant,
    actor: `client:${ctx.clientId}`,
    action,
    resourceType,
    resourceId,
    requestId: ctx.requestId,
    prevHash: prev ? prev.hash : undefined,
  };
  if (entry.prevHash === undefined) delete entry.prevHash;
  entry.hash = createHash('sha256').update(canonical(entry)).digest('hex');
  chain.push(entry);
}

export function publicJwk(store: Store): Rec {
  const jwk = store.signingKey.publicKey.export({ format: 'jwk' }) as Rec;
  return { ...jwk, kid: store.signingKey.keyId, alg: 'EdDSA', use: 'sig' };
}

/** GET /audit-log?limit=&before=: newest first; `before` pages by sequence number. */
export function listAudit(store: Store, ctx: Ctx): void {
  const { auditDefaultLimit, auditMaxLimit } = store.options;
  const rawLimit = ctx.query.get('limit');
  const limit = rawLimit === null ? auditDefaultLimit : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1) throw invalid('limit: integer, minimum 1');
  const cursorPages = store.options.auditCursorPages;
  const rawCursor = ctx.query.get('cursor');
  const rawBefore = cursorPages
    ? rawCursor === null
      ? null
      : Buffer.from(rawCursor, 'base64url').toString('utf8').replace(/^seq:/, '')
    : ctx.query.get('before');
  const before = rawBefore === null ? Number.POSITIVE_INFINITY : Number(rawBefore);
  if (rawBefore !== null && (!Number.isInteger(before) || before < 1)) throw invalid('before: integer, minimum 1');
  const chain = store.audit.get(ctx.tenant) ?? [];
  const page = chain
    .filter((e) => e.seq < before)
    .reverse()
    .slice(0, Math.min(limit, auditMaxLimit));
  const head = chain[chain.length - 1];
  const last = page[page.length - 1];
  const headSeq = head ? head.seq : 0;
  const headHash = head ? head.hash : '';
  const text = `${ctx.tenant}|${headSeq}|${headHash}`;
  const proof =
    store.options.auditProof === 'jws'
      ? jwsProof(store, ctx.tenant, headSeq, headHash)
      : {
          type: 'signed-chain-head',
          algorithm: 'Ed25519',
          entryHash: 'sha256(rfc8785(entry without hash))',
          tenant: ctx.tenant,
          headSeq,
          headHash,
          keyId: store.signingKey.keyId,
          signature: sign(null, Buffer.from(text), store.signingKey.privateKey).toString('base64url'),
          publicKey: publicJwk(store),
        };
  const nextBefore = last && last.seq > 1 ? last.seq : undefined;
  if (cursorPages) {
    const cursor = nextBefore === undefined ? undefined : Buffer.from(`seq:${nextBefore}`).toString('base64url');
    ok(ctx, { items: page, page: { size: page.length, cursor }, proof });
    return;
  }
  ok(ctx, { tenant: ctx.tenant, count: page.length, entries: page, nextBefore, proof });
}

/** A compact JWS (EdDSA, as jwt-scala signs it) whose payload is the chain head, with the key's JWK beside it. */
function jwsProof(store: Store, tenant: string, headSeq: number, headHash: string): Rec {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${b64({ alg: 'EdDSA', kid: store.signingKey.keyId, typ: 'JWT' })}.${b64({ tenant, headSeq, headHash, iat: Math.floor(Date.now() / 1000) })}`;
  const sig = sign(null, Buffer.from(input), store.signingKey.privateKey).toString('base64url');
  return { type: 'jws-chain-head', headSeq, headHash, jws: `${input}.${sig}`, jwk: publicJwk(store) };
}

export function auditKeys(store: Store, ctx: Ctx): void {
  ok(ctx, { keys: [publicJwk(store)] });
}
