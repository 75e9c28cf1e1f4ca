// The audit log: one hash chain per tenant. Each entry's hash is SHA-256 (crypto:hash(sha256, ...)) over
// "prev_hash|seq|at|action|resource_id", the first link 64 zeros; the answer carries the chain head as proof,
// signed with the service's Ed25519 key (public_key:sign/3 with eddsa) over "head_seq:head_hash".
import { createHash, sign } from 'node:crypto';
import { type Ctx, invalid, ok } from './http.ts';
import { iso, type Rec, type Store } from './state.ts';

const GENESIS = '0'.repeat(64);

export function entryHash(e: Rec): string {
  return createHash('sha256').update(`${e.prev_hash}|${e.seq}|${e.at}|${e.action}|${e.resource_id}`).digest('hex');
}

export function appendAudit(store: Store, tenant: string, fields: Rec): void {
  const log = store.audit.get(tenant) ?? [];
  store.audit.set(tenant, log);
  const prev = log[log.length - 1];
  const entry: Rec = { seq: log.length + 1, at: iso(), ...fields, prev_hash: prev ? prev.hash : GENESIS };
  entry.hash = entryHash(entry);
  log.push(entry);
}

function intParam(ctx: Ctx, name: string): number | undefined {
  const v = ctx.url.searchParams.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v)) throw invalid(`${name}: a non-negative integer`);
  return Number(v);
}

/**
 * GET /audit-log?limit=&before= (newest first) or ?after= (oldest first): keyset pages, the next page as a
 * path in `data.next_page`, a larger `limit` clamped to the maximum instead of refused.
 */
export function readAudit(store: Store, ctx: Ctx): void {
  const oldestFirst = store.options.auditOldestFirst ?? false;
  const max = store.options.auditMaxLimit ?? 100;
  const asked = intParam(ctx, 'limit') ?? 50;
  if (asked < 1) throw invalid('limit: at least 1');
  const limit = Math.min(asked, max);
  const before = intParam(ctx, 'before');
  const after = intParam(ctx, 'after');
  const log = store.audit.get(ctx.tenant ?? '') ?? [];
  const ordered = oldestFirst
    ? log.filter((e) => after === undefined || e.seq > after)
    : [...log].reverse().filter((e) => before === undefined || e.seq < before);
  const entries = ordered.slice(0, limit);
  const lastShown = entries[entries.length - 1];
  let next_page: string | null = null;
  if (lastShown && ordered.length > limit) {
    next_page = `/api/public/v1/audit-log?limit=${limit}&${oldestFirst ? 'after' : 'before'}=${lastShown.seq}`;
  }
  const head = log[log.length - 1];
  ok(ctx, {
    tenant: ctx.tenant,
    order: oldestFirst ? 'oldest_first' : 'newest_first',
    count: entries.length,
    entries,
    next_page,
    proof: signedHead(store, head ? head.seq : 0, head ? head.hash : GENESIS),
  });
  // Who opened the log is on the log (a compliance habit), written after the answer: its head is the head then.
  if (store.options.auditOpenings && before === undefined && after === undefined) {
    const fields = { action: 'audit.read', resource_type: 'audit_log', resource_id: ctx.tenant, actor: ctx.clientId };
    appendAudit(store, ctx.tenant ?? '', { ...fields, request_id: ctx.requestId });
  }
}

/** The chain head and its Ed25519 signature (standard base64, as Erlang's base64:encode writes it). */
function signedHead(store: Store, seq: number, hash: string): Rec {
  const signature = sign(null, Buffer.from(`${seq}:${hash}`), store.auditKey.privateKey).toString('base64');
  return {
    scheme: 'sha256_hash_chain',
    entry_hash: 'sha256(prev_hash|seq|at|action|resource_id), lowercase hex',
    genesis: GENESIS,
    head_seq: seq,
    head_hash: hash,
    signature_alg: 'Ed25519',
    signed_text: 'head_seq:head_hash',
    signature,
    public_key: store.auditKey.publicKey.export({ format: 'jwk' }),
  };
}
