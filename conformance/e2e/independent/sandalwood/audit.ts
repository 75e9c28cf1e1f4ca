// The tenant's audit log: a SHA-256 hash chain (each entry's hash over its RFC 8785 JSON without `hash`, which
// includes prevHash), with the chain head as the proof of integrity.
import { createHash } from 'node:crypto';
import { ApiError, type Call, canonical, newId } from './http.ts';
import type { State } from './state.ts';

export interface AuditEntry {
  seq: number;
  id: string;
  name: string;
  action: string;
  resource: string;
  actor: string;
  requestId: string;
  createTime: string;
  prevHash: string;
  hash: string;
}

const GENESIS = '0'.repeat(64);
const logs = new WeakMap<State, Map<string, AuditEntry[]>>();

function logOf(state: State, tenant: string): AuditEntry[] {
  let byTenant = logs.get(state);
  if (!byTenant) {
    byTenant = new Map();
    logs.set(state, byTenant);
  }
  let log = byTenant.get(tenant);
  if (!log) {
    log = [];
    byTenant.set(tenant, log);
  }
  return log;
}

export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(canonical(entry)).digest('hex');
}

/** Appends one change of the tenant to its chain. */
export function record(state: State, call: Call, action: string, resource: string): void {
  const tenant = call.tenant ?? '';
  const log = logOf(state, tenant);
  const id = newId('aud', 16);
  const base = {
    seq: log.length + 1,
    id,
    name: `tenants/${tenant}/auditEntries/${id}`,
    action,
    resource,
    actor: `clients/${call.clientId ?? 'unknown'}`,
    requestId: call.requestId,
    createTime: new Date().toISOString(),
    prevHash: log.at(-1)?.hash ?? GENESIS,
  };
  log.push({ ...base, hash: entryHash(base) });
}

/** GET /audit-log?limit=&pageToken=: entries oldest first, with the chain head as proof. */
export function listAudit(state: State, call: Call): unknown {
  const log = logOf(state, call.tenant ?? '');
  const limitText = call.url.searchParams.get('limit');
  const limit = limitText === null ? 50 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500)
    throw new ApiError('invalid_request', 'limit must be an integer from 1 to 500.', { field: 'limit' });
  const token = call.url.searchParams.get('pageToken');
  let from = 0;
  if (token) {
    from = Number(Buffer.from(token, 'base64url').toString('utf8').replace(/^seq:/, ''));
    if (!Number.isInteger(from) || from < 0)
      throw new ApiError('invalid_request', 'pageToken is not valid.', { field: 'pageToken' });
  }
  const entries = log.slice(from, from + limit);
  const next = from + limit < log.length ? Buffer.from(`seq:${from + limit}`).toString('base64url') : '';
  const head = log.at(-1);
  return {
    tenant: call.tenant,
    count: entries.length,
    entries,
    nextPageToken: next,
    totalSize: log.length,
    proof: {
      type: 'sha256-hash-chain',
      algorithm: 'sha256',
      entryHash: 'lowercase hex SHA-256 of the entry as RFC 8785 JSON without its hash field',
      genesisHash: GENESIS,
      headSeq: head?.seq ?? 0,
      headHash: head?.hash ?? GENESIS,
    },
  };
}
