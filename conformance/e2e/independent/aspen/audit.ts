// The tenant's audit log: every change (creation, activation, webhook registration, redelivery, removal) as
// an entry whose leaf hash feeds a per-tenant Merkle tree. A page (newest first, `limit` newest entries,
// no paging: lists carry count only) carries the tree's root and size and each entry's inclusion proof.
import { type Call, canonical, HttpError } from './http-kit.ts';
import { leafHash, MerkleTree } from './merkle.ts';
import type { State } from './state.ts';
import { ulid } from './ulid.ts';

interface Entry {
  id: string;
  sequence: number;
  at: string;
  action: string;
  actor: string;
  resourceType: string;
  resourceId: string;
  requestId: string | null;
  idempotencyKey: string | null;
  after: Record<string, unknown>;
}
const logs = new WeakMap<State, Map<string, { entries: Entry[]; leaves: Buffer[] }>>();

function logOf(state: State, tenant: string): { entries: Entry[]; leaves: Buffer[] } {
  let all = logs.get(state);
  if (all === undefined) {
    all = new Map();
    logs.set(state, all);
  }
  let log = all.get(tenant);
  if (log === undefined) {
    log = { entries: [], leaves: [] };
    all.set(tenant, log);
  }
  return log;
}

export interface Change {
  action: string;
  resourceType: string;
  resourceId: string;
  after: Record<string, unknown>;
}

/** Records a change; `call` is absent for the background jobs (actor "system"). */
export function record(state: State, tenant: string, change: Change, call?: Call): void {
  const log = logOf(state, tenant);
  const entry: Entry = {
    id: ulid(),
    sequence: log.entries.length + 1,
    at: new Date().toISOString(),
    actor: call?.clientId ?? 'system',
    requestId: call?.requestId ?? null,
    idempotencyKey: call?.idempotencyKey ?? null,
    ...change,
  };
  log.entries.push(entry);
  log.leaves.push(leafHash(canonical(entry)));
}

/** GET /audit-log?limit=1..500 (default 100). */
export function auditPage(state: State, call: Call): Record<string, unknown> {
  for (const k of call.url.searchParams.keys()) {
    if (k !== 'limit') throw new HttpError('invalid_request', `unknown query parameter ${k}`);
  }
  const raw = call.url.searchParams.get('limit');
  if (raw !== null && !/^[0-9]{1,4}$/.test(raw))
    throw new HttpError('invalid_request', 'limit must be an integer 1 to 500');
  const limit = raw === null ? 100 : Number(raw);
  if (limit < 1 || limit > 500) throw new HttpError('invalid_request', 'limit must be an integer 1 to 500');
  const log = logOf(state, call.tenant ?? '');
  const tree = new MerkleTree(log.leaves.slice());
  const size = log.entries.length;
  const entries = [];
  for (let i = size - 1; i >= 0 && entries.length < limit; i--) {
    const e = log.entries[i];
    if (e === undefined) continue;
    entries.push({
      ...e,
      leafIndex: i,
      leafHash: (log.leaves[i] ?? Buffer.alloc(32)).toString('hex'),
      inclusionProof: tree.proof(i),
    });
  }
  return {
    tenant: call.tenant,
    count: entries.length,
    order: 'newest-first',
    entries,
    merkleRoot: tree.root(),
    treeSize: size,
    proof: {
      scheme: 'rfc9162-merkle-inclusion',
      hash: 'sha-256',
      leaf: 'SHA-256(0x00 || canonical JSON of the entry without leafIndex, leafHash, inclusionProof; keys sorted)',
      node: 'SHA-256(0x01 || left || right)',
    },
  };
}
