// The audit log of ironwood: one append-only Merkle tree per tenant (RFC 6962 / RFC 9162 hashing). An
// entry's leafHash is SHA-256 over 0x00 and the RFC 8785 JSON of the entry without leafHash and auditPath;
// the answer carries the tree head the page was proven against and, per entry, its inclusion proof.
import { createHash, randomUUID } from 'node:crypto';
import { canonical } from './http-util.ts';

export interface AuditEntry {
  id: string;
  index: number;
  at: string;
  action: string;
  resourceType: string;
  resourceId: string;
  clientId: string;
  requestId: string;
  leafHash: string;
}

const logs = new WeakMap<object, Map<string, { entries: AuditEntry[]; leaves: Buffer[] }>>();

function sha(...parts: Buffer[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** The largest power of two smaller than n (RFC 6962 split point). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export function treeHash(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return leaves[0] as Buffer;
  const k = split(leaves.length);
  return sha(Buffer.from([1]), treeHash(leaves.slice(0, k)), treeHash(leaves.slice(k)));
}

/** RFC 6962 PATH(m, D[n]): the audit path of leaf m in a tree of these leaves, leaf to root. */
export function auditPath(m: number, leaves: Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  if (m < k) return [...auditPath(m, leaves.slice(0, k)), treeHash(leaves.slice(k))];
  return [...auditPath(m - k, leaves.slice(k)), treeHash(leaves.slice(0, k))];
}

function tenantLog(owner: object, tenant: string) {
  let byTenant = logs.get(owner);
  if (!byTenant) {
    byTenant = new Map();
    logs.set(owner, byTenant);
  }
  let log = byTenant.get(tenant);
  if (!log) {
    log = { entries: [], leaves: [] };
    byTenant.set(tenant, log);
  }
  return log;
}

/** Appends one change of the tenant (only completed changes: refusals change nothing and are not logged). */
export function record(
  owner: object,
  tenant: string,
  change: { action: string; resourceType: string; resourceId: string; clientId: string; requestId: string },
): void {
  const log = tenantLog(owner, tenant);
  const base = { id: randomUUID(), index: log.entries.length, at: new Date().toISOString(), ...change };
  const leaf = sha(Buffer.from([0]), Buffer.from(canonical(base), 'utf8'));
  log.entries.push({ ...base, leafHash: leaf.toString('base64') });
  log.leaves.push(leaf);
}

/** One page (oldest first, by leaf index) proven against the tree of `size` leaves. */
export function page(owner: object, tenant: string, skip: number, top: number, size?: number) {
  const log = tenantLog(owner, tenant);
  const treeSize = Math.min(size ?? log.entries.length, log.entries.length);
  const leaves = log.leaves.slice(0, treeSize);
  const entries = log.entries.slice(skip, Math.min(skip + top, treeSize)).map((e) => ({
    ...e,
    auditPath: auditPath(e.index, leaves).map((b) => b.toString('base64')),
  }));
  return {
    entries,
    treeHead: { size: treeSize, rootHash: treeHash(leaves).toString('base64'), algorithm: 'sha256' },
    more: skip + top < treeSize,
  };
}
