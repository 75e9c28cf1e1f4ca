// The audit log: one hash chain per tenant. Each entry's hash is SHA3-256 (hex) over the pipe-joined
// fields the answer publishes (proof.entry_hash_input); every 10th entry is a checkpoint signed with an
// HMAC whose key is not published (the operator verifies it; partners verify the chain).
import { createHash, createHmac } from 'node:crypto';
import type { AuditEntry, State } from './state.ts';
import { queryInt } from './validate.ts';

const GENESIS = '0'.repeat(64);
const INPUT = 'prev_hash|seq|at|actor|action|target';
const CHECKPOINT_EVERY = 10;

function entryHash(e: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha3-256')
    .update(`${e.prev_hash}|${e.seq}|${e.at}|${e.actor}|${e.action}|${e.target}`)
    .digest('hex');
}

export function record(state: State, tenant: string, actor: string, action: string, target: string): void {
  const chain = state.audit.get(tenant) ?? [];
  state.audit.set(tenant, chain);
  const prev = chain[chain.length - 1];
  const base = {
    seq: chain.length + 1,
    at: new Date().toISOString(),
    actor,
    action,
    target,
    prev_hash: prev ? prev.hash : GENESIS,
  };
  chain.push({ ...base, hash: entryHash(base) });
}

function checkpoint(state: State, e: AuditEntry): Record<string, unknown> {
  const mac = createHmac('sha256', state.auditKey).update(`${e.seq}|${e.hash}`).digest('hex');
  if (state.opts.checkpointSignature)
    return { seq: e.seq, hash: e.hash, signature: mac, alg: 'HS256', signed_input: 'seq|hash', key_id: 'ck1' };
  return { seq: e.seq, hash: e.hash, mac, mac_algorithm: 'hmac-sha256', mac_input: 'seq|hash', key_id: 'ck1' };
}

/** GET /audit-log?offset&limit: newest first, total in data, a Link header to the next page. */
export function auditPage(state: State, tenant: string, query: URLSearchParams): { data: unknown; next?: string } {
  const offset = queryInt(query, 'offset', 0, 0, 1_000_000);
  const limit = queryInt(query, 'limit', 50, 1, 500);
  const chain = state.audit.get(tenant) ?? [];
  const newestFirst = [...chain].reverse();
  const entries = newestFirst.slice(offset, offset + limit);
  const head = chain[chain.length - 1];
  const data = {
    tenant,
    total: chain.length,
    offset,
    limit,
    count: entries.length,
    entries,
    proof: {
      type: 'hash_chain',
      algorithm: 'sha3-256',
      encoding: 'hex',
      entry_hash_input: INPUT,
      genesis_prev_hash: GENESIS,
      head: head ? { seq: head.seq, hash: head.hash } : null,
      checkpoint_every: CHECKPOINT_EVERY,
      checkpoints: entries.filter((e) => e.seq % CHECKPOINT_EVERY === 0).map((e) => checkpoint(state, e)),
    },
  };
  const more = offset + limit < chain.length;
  return more ? { data, next: `?offset=${offset + limit}&limit=${limit}` } : { data };
}
