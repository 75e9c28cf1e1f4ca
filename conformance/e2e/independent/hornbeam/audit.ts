// The audit log: per tenant, oldest first, every entry a leaf of an RFC 9162 Merkle tree (SHA-256,
// leaf = 0x00 || canonical JSON of the entry, node = 0x01 || left || right). Each answer carries the
// tree head (size and root) and, per entry, its index, leaf hash and inclusion path, so a client
// verifies every entry against the root without trusting hornbeam; roots of later answers extend earlier ones.
import { createHash } from 'node:crypto';
import type { AuditEntry, State } from './state.ts';
import { canonical, ulid } from './util.ts';

export function record(state: State, tenant: string, e: Omit<AuditEntry, 'id' | 'seq' | 'at'>): void {
  let list = state.audit.get(tenant);
  if (!list) {
    list = [];
    state.audit.set(tenant, list);
  }
  list.push({ id: ulid(), seq: list.length + 1, at: new Date().toISOString(), ...e });
}

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leafHash = (e: AuditEntry) => sha(Buffer.from([0]), Buffer.from(canonical(e), 'utf8'));

/** Merkle tree hashes over leaves[lo, hi), memoised for one answer. */
function treeHasher(leaves: Buffer[]) {
  const memo = new Map<string, Buffer>();
  const mth = (lo: number, hi: number): Buffer => {
    const key = `${lo}:${hi}`;
    const hit = memo.get(key);
    if (hit) return hit;
    let h: Buffer;
    if (hi - lo === 1) h = leaves[lo] ?? Buffer.alloc(32);
    else {
      const k = largestPowerOfTwoBelow(hi - lo);
      h = sha(Buffer.from([1]), mth(lo, lo + k), mth(lo + k, hi));
    }
    memo.set(key, h);
    return h;
  };
  const path = (m: number, lo: number, hi: number): Buffer[] => {
    if (hi - lo <= 1) return [];
    const k = largestPowerOfTwoBelow(hi - lo);
    return m < k ? [...path(m, lo, lo + k), mth(lo + k, hi)] : [...path(m - k, lo + k, hi), mth(lo, lo + k)];
  };
  return { mth, path };
}

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export function auditPage(
  state: State,
  tenant: string,
  limit: number,
  after: number,
): { data: Record<string, unknown>; next: string | null } {
  const all = state.audit.get(tenant) ?? [];
  const leaves = all.map(leafHash);
  const tree = treeHasher(leaves);
  const page = all.filter((e) => e.seq > after).slice(0, limit);
  const entries = page.map((e) => ({
    ...e,
    leafIndex: e.seq - 1,
    leafHash: (leaves[e.seq - 1] ?? Buffer.alloc(32)).toString('hex'),
    auditPath: tree.path(e.seq - 1, 0, all.length).map((b) => b.toString('hex')),
  }));
  const lastSeq = page.at(-1)?.seq ?? after;
  const next = lastSeq < all.length ? `/api/public/v1/audit-log?limit=${limit}&after=${lastSeq}` : null;
  return {
    data: {
      tenant,
      count: entries.length,
      order: 'oldest-first',
      entries,
      proof: {
        type: 'merkle-inclusion',
        standard: 'RFC 9162',
        hashAlgorithm: 'sha256',
        leafEncoding: 'SHA-256(0x00 || canonical JSON of the entry without leafIndex, leafHash and auditPath)',
        treeSize: all.length,
        rootHash: all.length ? tree.mth(0, all.length).toString('hex') : sha().toString('hex'),
      },
      next,
    },
    next,
  };
}
