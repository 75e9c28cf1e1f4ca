// The audit log: one hash chain per tenant, as the team's `audit_entry` table with a `prev_hash` column filled in
// the same transaction. Each entry's hash is SHA-256 (hex) over "prevHash|seq|at|action|target"; the first entry
// links to 64 zeros. Pages are newest first, keyset-paged by `before` (a seq), as an Exposed query with
// `orderBy(seq, DESC).limit(n)`. Optionally the chain head is signed with Ed25519 (the key published beside it).
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { ApiError, type Ctx, ok } from './http.ts';
import { type Rec, type Store, stamp, ulid } from './state.ts';

const GENESIS = '0'.repeat(64);
const signers = new WeakMap<Store, { privateKey: KeyObject; jwk: Rec }>();

function signer(store: Store): { privateKey: KeyObject; jwk: Rec } {
  let s = signers.get(store);
  if (!s) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    s = { privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid: 'sorrel-audit-1', use: 'sig' } };
    signers.set(store, s);
  }
  return s;
}

export function entryHash(e: Rec): string {
  return createHash('sha256').update(`${e.prevHash}|${e.seq}|${e.at}|${e.action}|${e.target}`).digest('hex');
}

/** Appends one entry to the tenant's chain. */
export function record(store: Store, ctx: Ctx, action: string, target: string): void {
  const tenant = ctx.tenant ?? '';
  const chain = store.audit.get(tenant) ?? [];
  store.audit.set(tenant, chain);
  const prev = chain[chain.length - 1];
  const entry: Rec = {
    seq: chain.length + 1,
    id: ulid(),
    at: stamp(store),
    action,
    target,
    actor: ctx.clientId,
    requestId: ctx.requestId,
    prevHash: prev ? prev.hash : GENESIS,
  };
  entry.hash = entryHash(entry);
  chain.push(entry);
}

function intParam(ctx: Ctx, name: string): number | undefined {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw))
    throw new ApiError('invalid_request', `Query parameter "${name}" must be a positive integer.`);
  return Number(raw);
}

/** GET /audit-log?limit=&before= */
export function auditLog(store: Store, ctx: Ctx): void {
  const max = store.options.auditMaxLimit;
  const requested = intParam(ctx, 'limit') ?? 50;
  if (requested < 1) throw new ApiError('invalid_request', 'Query parameter "limit" must be at least 1.');
  const limit = Math.min(requested, max);
  const before = intParam(ctx, 'before');
  const chain = store.audit.get(ctx.tenant ?? '') ?? [];
  const newestFirst = [...chain].reverse().filter((e) => before === undefined || e.seq < before);
  const entries = newestFirst.slice(0, limit);
  const head = chain[chain.length - 1];
  const proof: Rec = {
    type: 'hash-chain',
    algorithm: 'SHA-256',
    encoding: 'hex',
    input: 'prevHash|seq|at|action|target',
    genesis: GENESIS,
    headSeq: head?.seq ?? 0,
    headHash: head?.hash ?? GENESIS,
  };
  if (store.options.signedProof) {
    const s = signer(store);
    proof.signatureAlgorithm = 'Ed25519';
    proof.signature = sign(null, Buffer.from(proof.headHash), s.privateKey).toString('base64');
    proof.publicKey = s.jwk;
  }
  const last = entries[entries.length - 1];
  const data: Rec = { tenant: ctx.tenant, count: entries.length, total: chain.length, limit, entries, proof };
  if (last && newestFirst.length > entries.length) {
    data.nextBefore = last.seq;
    data.next = `${ctx.url.pathname}?limit=${limit}&before=${last.seq}`;
  }
  ok(ctx, data);
}
