// The audit log: one SHA-256 hash chain per tenant (rows of `audit_entries`, snake_case columns as Caqti
// maps them). Each entry's hash is sha256_hex("<prev_hash>|<seq>|<at>|<action>|<resource_id>"); the first
// links to 64 zeros (or "" with auditGenesis 'empty'). Pages run newest first, `before` pages back.
import { createHash } from 'node:crypto';
import type { Principal } from './auth.ts';
import { Failure, type Rec } from './http.ts';
import type { Store } from './state.ts';

const chains = new WeakMap<Store, Map<string, Rec[]>>();

function chain(store: Store, tenant: string): Rec[] {
  let all = chains.get(store);
  if (!all) {
    all = new Map();
    chains.set(store, all);
  }
  let c = all.get(tenant);
  if (!c) {
    c = [];
    all.set(tenant, c);
  }
  return c;
}

function genesis(store: Store): string {
  return store.options.auditGenesis === 'empty' ? '' : '0'.repeat(64);
}

export function entryHash(e: Rec): string {
  const input = `${e.prev_hash}|${e.seq}|${e.at}|${e.action}|${e.resource_id}`;
  return createHash('sha256').update(input).digest('hex');
}

export function appendAudit(store: Store, who: Principal, action: string, resourceId: string): void {
  const c = chain(store, who.tenant);
  const prev = c.at(-1);
  const e: Rec = {
    seq: c.length + 1,
    at: new Date().toISOString(),
    action,
    actor: who.clientId,
    resource_id: resourceId,
    prev_hash: prev ? prev.hash : genesis(store),
  };
  e.hash = entryHash(e);
  c.push(e);
}

function intParam(q: URLSearchParams, name: string, min: number): number | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new Failure('invalid_request', `${name}: expected an integer, minimum ${min}`);
  }
  return Number(raw);
}

export function readAudit(store: Store, who: Principal, q: URLSearchParams): Rec {
  const max = store.options.auditMaxLimit;
  const limit = Math.min(intParam(q, 'limit', 1) ?? 50, max);
  const before = intParam(q, 'before', 1);
  const c = chain(store, who.tenant);
  const older = before === undefined ? c : c.filter((e) => e.seq < before);
  const entries = older.slice(-limit).reverse();
  const last = entries.at(-1);
  const head = c.at(-1);
  return {
    tenant: who.tenant,
    count: entries.length,
    entries,
    next_before: last && last.seq > 1 ? last.seq : null,
    proof: {
      type: 'sha256-hash-chain',
      hash_input: 'prev_hash|seq|at|action|resource_id',
      genesis: genesis(store),
      head_seq: head ? head.seq : 0,
      head_hash: head ? head.hash : genesis(store),
    },
  };
}
