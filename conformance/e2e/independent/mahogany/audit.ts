// The audit log: one hash chain per tenant, each entry's hash over its RFC 8785 JSON without the hash,
// and an Ed25519-signed chain head as the proof of integrity.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { type Ctx, canonical, invalid, newId, nowIso, type Reply, sha256 } from './http.ts';
import type { AuditEntry, State } from './state.ts';

const GENESIS = '0'.repeat(64);
const keys = new WeakMap<State, { publicKey: KeyObject; privateKey: KeyObject }>();

function keyPair(state: State) {
  let k = keys.get(state);
  if (!k) {
    k = generateKeyPairSync('ed25519');
    keys.set(state, k);
  }
  return k;
}

/** Appends an entry for a change the caller made. */
export function record(ctx: Ctx, action: string, entityType: string, entityId: string) {
  const tenant = ctx.tenant ?? '';
  const chain = ctx.state.audit.get(tenant) ?? [];
  ctx.state.audit.set(tenant, chain);
  const prev = chain.at(-1);
  const entry: Omit<AuditEntry, 'hash'> = {
    seq: chain.length + 1,
    id: newId(),
    at: nowIso(),
    tenant,
    actor: ctx.clientId ?? '',
    action,
    entityType,
    entityId,
    requestId: ctx.requestId,
    prevHash: prev ? prev.hash : GENESIS,
  };
  chain.push({ ...entry, hash: sha256(canonical(entry)) });
}

function intParam(ctx: Ctx, names: string[], min: number, max: number, fallback: number) {
  for (const name of names) {
    const v = ctx.url.searchParams.get(name);
    if (v === null) continue;
    if (!/^\d{1,9}$/.test(v) || Number(v) < min) {
      throw invalid(
        `Query parameter ${name} is invalid`,
        `${name}: integer, minimum ${min} (at most ${max} are served)`,
      );
    }
    return Math.min(Number(v), max);
  }
  return fallback;
}

/** GET /audit-log?limit=&$top=&$skip=: newest entries first, with the signed chain head. */
export function listAudit(ctx: Ctx): Reply {
  const limit = intParam(ctx, ['limit', '$top'], 1, 500, 50);
  const skip = intParam(ctx, ['$skip'], 0, 1_000_000, 0);
  const chain = ctx.state.audit.get(ctx.tenant ?? '') ?? [];
  const newestFirst = [...chain].reverse();
  const entries = newestFirst.slice(skip, skip + limit);
  const last = chain.at(-1);
  const head = last ? last.hash : GENESIS;
  const k = keyPair(ctx.state);
  const publicKey = k.publicKey.export({ format: 'jwk' });
  const signature = sign(null, Buffer.from(head, 'utf8'), k.privateKey).toString('base64');
  return {
    data: {
      tenant: ctx.tenant,
      count: entries.length,
      total: chain.length,
      skip,
      top: limit,
      order: 'seq desc',
      entries,
      proof: {
        type: 'sha256-hash-chain',
        algorithm: 'sha256',
        entryHash: 'sha256 hex of the RFC 8785 JSON of the entry without its hash field',
        chainLink: 'prevHash is the hash of the previous entry (genesis: 64 zeros)',
        genesis: GENESIS,
        headSeq: last ? last.seq : 0,
        head,
        signatureAlgorithm: 'Ed25519',
        signedText: 'head',
        signature,
        publicKey: { kty: publicKey.kty, crv: publicKey.crv, x: publicKey.x },
      },
    },
  };
}
