// The tenant's audit log: an append-only SHA-256 hash chain (package:crypto). Each entry's `hash` is the hex
// digest of the entry without `hash`, JSON-encoded in field order (Dart's `jsonEncode` of the toJson() map),
// and `previousHash` links to the entry before (null on the first). Newest first, paged by `pageToken`
// (AIP-158 style: `limit`, `nextPageToken`); the answer's `proof` names the chain head, optionally signed.
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { badRequest, type Ctx } from './http.ts';
import { dartNow, type Rec, type Store, uuid } from './state.ts';

export interface AuditLog {
  chains: Map<string, Rec[]>;
  keys: { privateKey: KeyObject; publicJwk: Rec } | undefined;
}

export const newAuditLog = (): AuditLog => ({ chains: new Map(), keys: undefined });

export function record(
  log: AuditLog,
  tenant: string,
  action: string,
  resourceType: string,
  resourceId: string,
  actor: string,
): void {
  const chain = log.chains.get(tenant) ?? [];
  log.chains.set(tenant, chain);
  const entry: Rec = {
    sequence: chain.length + 1,
    id: uuid(),
    action,
    resourceType,
    resourceId,
    actor,
    at: dartNow(),
    previousHash: chain.at(-1)?.hash ?? null,
  };
  entry.hash = createHash('sha256').update(JSON.stringify(entry)).digest('hex');
  chain.push(entry);
}

const token = (seq: number) => Buffer.from(`before:${seq}`).toString('base64url');

function before(raw: string | null): number | undefined {
  if (raw === null) return undefined;
  const m = /^before:(\d+)$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!m) throw badRequest('pageToken is not valid');
  return Number(m[1]);
}

export function auditPage(store: Store, log: AuditLog, ctx: Ctx): Rec {
  const chain = log.chains.get(ctx.tenant ?? '') ?? [];
  const rawLimit = ctx.url.searchParams.get('limit');
  if (rawLimit !== null && !/^\d+$/.test(rawLimit)) throw badRequest('limit must be a positive integer');
  const limit = Math.min(Math.max(Number(rawLimit ?? 20), 1), store.options.auditMaxPageSize);
  const top = before(ctx.url.searchParams.get('pageToken')) ?? chain.length + 1;
  const entries = chain.slice(Math.max(0, top - 1 - limit), top - 1).reverse();
  const last = entries.at(-1);
  const head = chain.at(-1);
  const proof: Rec = {
    type: 'sha256-hash-chain',
    algorithm: 'SHA-256',
    hashInput: 'jsonEncode(entry without hash), fields in served order',
    headSequence: head?.sequence ?? 0,
    headHash: head?.hash ?? null,
  };
  if (store.options.auditProof === 'signed' && head) {
    if (!log.keys) {
      const pair = generateKeyPairSync('ed25519');
      log.keys = { privateKey: pair.privateKey, publicJwk: pair.publicKey.export({ format: 'jwk' }) };
    }
    proof.signatureAlgorithm = 'Ed25519';
    proof.signature = sign(null, Buffer.from(String(head.hash)), log.keys.privateKey).toString('base64');
    proof.publicKey = log.keys.publicJwk;
  }
  return {
    count: entries.length,
    entries,
    nextPageToken: last && last.sequence > 1 ? token(last.sequence) : null,
    proof,
  };
}
