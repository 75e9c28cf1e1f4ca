import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inclusionPath, leafHash, treeHead } from '../../violations/merkle-tree.ts';
import {
  declaresRfc9162,
  digestBytes,
  merkleInclusions,
  statedTree,
  treeRoot,
  verifyInclusion,
} from './merkle-proof.ts';

function page(n: number) {
  const leaves = Array.from({ length: n }, (_, i) => leafHash(`entry ${i}`));
  const root = treeHead(leaves);
  return {
    merkleRoot: root.toString('hex'),
    treeSize: n,
    scheme: 'RFC 9162 SHA-256',
    entries: leaves.map((h, i) => ({
      seq: i + 1,
      leafIndex: i,
      leafHash: h.toString('hex'),
      inclusionProof: inclusionPath(i, leaves).map((p) => p.toString('base64')),
    })),
  };
}

describe('Merkle inclusion proofs (RFC 9162) in an audit log answer', () => {
  it('reads the shape and verifies every proof of trees of 1 to 13 leaves', () => {
    for (let n = 1; n <= 13; n++) {
      const data = page(n);
      const proofs = merkleInclusions(data, data.entries);
      expect(proofs?.length).toBe(n);
      expect(proofs?.every(verifyInclusion)).toBe(true);
    }
    expect(declaresRfc9162(page(2))).toBe(true);
  });

  it('a changed root, step, index or size no longer verifies', () => {
    const data = page(7);
    const ok = merkleInclusions(data, data.entries) ?? [];
    const first = ok[3];
    if (!first) throw new Error('no proof');
    const flipped = Buffer.from(first.root);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(verifyInclusion({ ...first, root: flipped })).toBe(false);
    expect(verifyInclusion({ ...first, path: [...first.path].reverse() })).toBe(false);
    expect(verifyInclusion({ ...first, index: 4 })).toBe(false);
    // A size only shows where it changes the path's shape: for the last leaf (for leaf 3 of 7 and of 8 it does not).
    const last = ok[6];
    expect(last && verifyInclusion(last)).toBe(true);
    expect(last && verifyInclusion({ ...last, treeSize: 8 })).toBe(false);
  });

  it('is no Merkle shape without a root, a size, or per-entry leaf hash, index and path', () => {
    const data = page(3);
    expect(merkleInclusions({ ...data, merkleRoot: undefined }, data.entries)).toBeUndefined();
    const stripped = data.entries.map(({ inclusionProof: _p, ...e }) => e);
    expect(merkleInclusions({ ...data, entries: stripped }, stripped)).toBeUndefined();
    expect(merkleInclusions({ entries: [] }, [])).toBeUndefined();
    expect(digestBytes(`sha256:${'ab'.repeat(32)}`)?.length).toBe(32);
    expect(digestBytes('xyz')).toBeUndefined();
  });

  it("takes RFC 9162's leaf over an entry's own hash where no leaf hash is shown, only where it proves (totara)", () => {
    const own = Array.from({ length: 6 }, (_, i) => createHash('sha256').update(`entry ${i}`).digest());
    const leaves = own.map((h) =>
      createHash('sha256')
        .update(Buffer.from([0]))
        .update(h)
        .digest(),
    );
    const data = {
      merkle: { rootHash: treeHead(leaves).toString('hex'), treeSize: 6 },
      entries: own.map((h, i) => ({
        hash: h.toString('hex'),
        leafIndex: i,
        auditPath: inclusionPath(i, leaves).map((p) => p.toString('hex')),
      })),
    };
    const proofs = merkleInclusions(data, data.entries);
    expect(proofs?.length).toBe(6);
    expect(proofs?.every(verifyInclusion)).toBe(true);
    // An entry's hash edited after the fact: judged (the others prove the construction), and it no longer verifies.
    const edited = { ...data, entries: data.entries.map((e, i) => (i === 2 ? { ...e, hash: 'ab'.repeat(32) } : e)) };
    expect(merkleInclusions(edited, edited.entries)?.filter((p) => !verifyInclusion(p)).length).toBe(1);
    // A leaf over something else (none proves): no Merkle shape the kit can judge, as before.
    const other = { ...data, entries: data.entries.map((e) => ({ ...e, hash: 'cd'.repeat(32) })) };
    expect(merkleInclusions(other, other.entries)).toBeUndefined();
  });

  it('reads inclusion proofs listed beside the entries, each naming its entry (totara: proof.merkle.inclusions by seq)', () => {
    const data = page(5);
    const apart = {
      entries: data.entries.map(({ inclusionProof: _p, leafIndex: _i, ...e }) => e),
      proof: {
        merkle: {
          rootHash: data.merkleRoot,
          treeSize: 5,
          inclusions: [...data.entries]
            .reverse()
            .map((e) => ({ seq: e.seq, leafIndex: e.leafIndex, auditPath: e.inclusionProof })),
        },
      },
    };
    const proofs = merkleInclusions(apart, apart.entries);
    expect(proofs?.map((p) => p.index)).toEqual([0, 1, 2, 3, 4]);
    expect(proofs?.every(verifyInclusion)).toBe(true);
  });

  it('reads proto3 JSON (whole numbers as strings) and a path under a name of its own, by its shape', () => {
    const data = page(5);
    const proto = {
      treeHead: { rootHash: data.merkleRoot, treeSize: '5' },
      entries: data.entries.map((e) => ({
        seq: e.seq,
        leafHash: e.leafHash,
        inclusionProof: { leafIndex: String(e.leafIndex), hashes: e.inclusionProof },
      })),
    };
    const proofs = merkleInclusions(proto, proto.entries);
    expect(proofs?.length).toBe(5);
    expect(proofs?.every(verifyInclusion)).toBe(true);
  });

  it('recomputes the tree head over leaves as RFC 9162 builds it, and reads a stated tree with leaf hashes only', () => {
    for (let n = 1; n <= 13; n++) {
      const leaves = Array.from({ length: n }, (_, i) => leafHash(`entry ${i}`));
      expect(treeRoot(leaves).equals(treeHead(leaves))).toBe(true);
    }
    const leaves = [0, 1, 2].map((i) => leafHash(`entry ${i}`));
    const data = { treeHead: { rootHash: treeRoot(leaves).toString('hex'), treeSize: 3 } };
    const entries = leaves.map((h, seq) => ({ seq, leafHash: h.toString('base64url') }));
    const stated = statedTree(data, entries);
    expect(stated?.size).toBe(3);
    expect(stated?.leaves.every((l, i) => l?.equals(leaves[i] as Buffer))).toBe(true);
    expect(statedTree(data, [{ seq: 1 }])).toBeUndefined();
    expect(statedTree({}, entries)).toBeUndefined();
  });
});
