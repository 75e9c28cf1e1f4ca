// A Merkle tree as RFC 9162 builds it (§2.1.1 hashes, §2.1.3.1 inclusion paths), written out recursively as
// the RFC states them: for the violation that gives the audit log a Merkle proof, and the verifier's tests.
import { createHash } from 'node:crypto';

const sha = (...parts: Buffer[]) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();
const split = (n: number) => 2 ** Math.floor(Math.log2(n - 1));

/** A leaf's hash: SHA-256 of 0x00 and its data. @example leafHash('entry 1') */
export const leafHash = (data: string) => sha(Buffer.from([0]), Buffer.from(data));

/** The tree head of leaf hashes (at least one). @example treeHead([leafHash('a')]) */
export function treeHead(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 1) return leaves[0] as Buffer;
  const k = split(leaves.length);
  return sha(Buffer.from([1]), treeHead(leaves.slice(0, k)), treeHead(leaves.slice(k)));
}

/** The inclusion path of leaf `m` among `leaves`. @example inclusionPath(0, [a, b]) // [b] */
export function inclusionPath(m: number, leaves: readonly Buffer[]): Buffer[] {
  if (leaves.length === 1) return [];
  const k = split(leaves.length);
  return m < k
    ? [...inclusionPath(m, leaves.slice(0, k)), treeHead(leaves.slice(k))]
    : [...inclusionPath(m - k, leaves.slice(k)), treeHead(leaves.slice(0, k))];
}
