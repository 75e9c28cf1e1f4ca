// A Merkle tree as in RFC 6962 / RFC 9162 §2.1: leaf = SHA-256(0x00 || data), node = SHA-256(0x01 || l || r),
// the split at the largest power of two below n; inclusion proofs are the audit paths of §2.1.3, deepest first.
import { createHash } from 'node:crypto';

export function leafHash(data: string): Buffer {
  return createHash('sha256')
    .update(Buffer.from([0]))
    .update(data, 'utf8')
    .digest();
}

function nodeHash(left: Buffer, right: Buffer): Buffer {
  return createHash('sha256')
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest();
}

function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** A tree over fixed leaves, with subtree hashes memoised so a page of proofs costs O(n + p log n). */
export class MerkleTree {
  leaves: Buffer[];
  memo = new Map<string, Buffer>();
  constructor(leaves: Buffer[]) {
    this.leaves = leaves;
  }

  hash(start: number, n: number): Buffer {
    if (n === 0) return createHash('sha256').digest();
    if (n === 1) return this.leaves[start] ?? Buffer.alloc(32);
    const id = `${start}:${n}`;
    const seen = this.memo.get(id);
    if (seen !== undefined) return seen;
    const k = split(n);
    const h = nodeHash(this.hash(start, k), this.hash(start + k, n - k));
    this.memo.set(id, h);
    return h;
  }

  root(): string {
    return this.hash(0, this.leaves.length).toString('hex');
  }

  /** The audit path of leaf m in the whole tree. */
  proof(m: number): string[] {
    const path: Buffer[] = [];
    let start = 0;
    let n = this.leaves.length;
    let index = m;
    const siblings: Buffer[] = [];
    while (n > 1) {
      const k = split(n);
      if (index < k) {
        siblings.push(this.hash(start + k, n - k));
        n = k;
      } else {
        siblings.push(this.hash(start, k));
        start += k;
        index -= k;
        n -= k;
      }
    }
    // Collected top-down; the RFC's path lists the deepest sibling first.
    for (let i = siblings.length - 1; i >= 0; i--) path.push(siblings[i] ?? Buffer.alloc(32));
    return path.map((b) => b.toString('hex'));
  }
}

/** RFC 9162 §2.1.3.2 verification: what a partner runs on an audit entry (leafIndex, treeSize, leafHash, inclusionProof, merkleRoot). */
export function verifyInclusion(index: number, size: number, leaf: string, proof: string[], root: string): boolean {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leaf, 'hex');
  for (const p of proof) {
    const sib = Buffer.from(p, 'hex');
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(sib, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn >>= 1;
          sn >>= 1;
        }
      }
    } else r = nodeHash(r, sib);
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && r.toString('hex') === root;
}
