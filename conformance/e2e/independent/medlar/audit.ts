// The tenant's audit log: append-only entries, each with its own sha256 over its RFC 8785 JSON (without
// `hash`), served newest first in pages with a Merkle root (RFC 6962 hashing) over the page's entry hashes.
import { createHash } from 'node:crypto';
import { canonical, isoNow, nanoid, sha256Hex } from './util.ts';

export interface AuditEntry {
  id: string;
  seq: number;
  tenant: string;
  action: string;
  actor: string;
  resourceType: string;
  resourceId: string;
  details: Record<string, unknown>;
  requestId: string;
  createdAt: string;
  hash: string;
}

const h = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** RFC 6962 Merkle tree hash over leaves (the entry hashes' bytes): leaf 0x00||d, node 0x01||l||r. */
export function merkleRoot(leaves: Buffer[]): string {
  if (leaves.length === 0) return sha256Hex('');
  const tree = (items: Buffer[]): Buffer => {
    if (items.length === 1) return h(Buffer.from([0]), items[0] as Buffer);
    let k = 1;
    while (k * 2 < items.length) k *= 2;
    return h(Buffer.from([1]), tree(items.slice(0, k)), tree(items.slice(k)));
  };
  return tree(leaves).toString('hex');
}

export class AuditLog {
  private readonly entries = new Map<string, AuditEntry[]>();

  record(
    tenant: string,
    action: string,
    actor: string,
    resource: { type: string; id: string },
    details: Record<string, unknown>,
    requestId: string,
  ): AuditEntry {
    let list = this.entries.get(tenant);
    if (!list) {
      list = [];
      this.entries.set(tenant, list);
    }
    const base = {
      id: `aud_${nanoid()}`,
      seq: list.length + 1,
      tenant,
      action,
      actor,
      resourceType: resource.type,
      resourceId: resource.id,
      details,
      requestId,
      createdAt: isoNow(),
    };
    const entry: AuditEntry = { ...base, hash: sha256Hex(canonical(base)) };
    list.push(entry);
    return entry;
  }

  /** One page, newest first: entries with seq below `before` (the cursor), at most `limit`. */
  page(tenant: string, limit: number, before?: number) {
    const all = this.entries.get(tenant) ?? [];
    const upper = before === undefined ? all.length : Math.min(before - 1, all.length);
    const start = Math.max(0, upper - limit);
    const entries = all.slice(start, upper).reverse();
    const last = entries[entries.length - 1];
    const nextCursor = start > 0 && last ? String(last.seq) : null;
    const root = merkleRoot(entries.map((e) => Buffer.from(e.hash, 'hex')));
    return {
      tenant,
      order: 'newest-first',
      count: entries.length,
      total: all.length,
      entries,
      nextCursor,
      proof: {
        type: 'merkle-root',
        algorithm: 'sha256',
        entryHash: 'sha256 hex of the entry as RFC 8785 JSON without its hash field',
        tree: 'RFC 6962: leaf = sha256(0x00 || entry hash bytes), node = sha256(0x01 || left || right), leaves in page order',
        leafCount: entries.length,
        root,
      },
    };
  }
}
