// audit.integrity's second format: an audit log whose proof is a Merkle tree (RFC 9162), judged where the
// answer has its shape and names RFC 9162/6962, or some of its proofs verify by it (then the construction
// is that one); a Merkle tree of another construction is the deployment's legal choice, noted, not judged.
import type { Exchange } from '../client/http-client.ts';
import type { CheckContext } from '../runner/check.ts';
import { type AuditRead, entriesOf, numberingOf } from './support/audit-log.ts';
import { declaresRfc9162, merkleInclusions, statedTree, treeRoot, verifyInclusion } from './support/merkle-proof.ts';

/**
 * Verifies the page's inclusion proofs against its root, when it has the Merkle shape; whether it judged.
 * @example if (!judgeMerkleInclusion(ctx, ex, 'the tenant')) ctx.skip('no proof the kit recomputes');
 */
export function judgeMerkleInclusion(ctx: CheckContext, ex: Exchange, whose: string, rootProven = false): boolean {
  const entries = entriesOf(ex) ?? [];
  const data = (ex.json as { data?: unknown } | undefined)?.data;
  const proofs = entries.length ? merkleInclusions(data, entries) : undefined;
  if (!proofs) return false;
  const failing = proofs.flatMap((p, i) => (verifyInclusion(p) ? [] : [i]));
  // The root recomputed over the page's leaves by RFC 9162 (judgeMerkleRoot) proves the construction too.
  const named = declaresRfc9162(data);
  const declared = named || rootProven;
  if (failing.length === proofs.length && !declared) {
    ctx.note(
      `the audit log of ${whose}: a Merkle-shaped proof none of whose inclusion proofs verifies by RFC 9162's construction, and the answer names no scheme: another construction, not judged`,
    );
    return false;
  }
  ctx.note(
    `the audit log of ${whose}: ${proofs.length - failing.length} of ${proofs.length} inclusion proofs verify against the root${named ? ' (the answer names RFC 9162/6962)' : rootProven ? ' (the root recomputes by RFC 9162)' : ''}; the paths from the leaf hashes shown (the leaves' content is recomputed by audit.entry-hash)`,
  );
  ctx.expect.that(failing.length === 0, {
    expected: `the audit log of ${whose}: every entry's inclusion proof verifies against the page's root (RFC 9162 §2.1.3.2)${rootProven ? ', by whose construction its root recomputes over the leaves' : declared ? ', the scheme the answer names' : ', as the others do'}`,
    observed: `${failing.length} do not: entries at positions ${failing.slice(0, 8).join(', ')} of the page`,
    exchange: ex,
  });
  return true;
}

/**
 * A page that states a Merkle tree's root and size, its entries only their leaf hashes (no inclusion proofs):
 * where the pages read hold the whole tree (as many entries as its size, numbered), the root is recomputed
 * over the leaves oldest first (RFC 9162 §2.1.1). Judged where the answer names RFC 9162/6962 or the root
 * recomputes; whether it judged.
 * @example if (!judgeMerkleRoot(ctx, read, 'the tenant')) ctx.skip('no proof the kit recomputes');
 */
export function judgeMerkleRoot(ctx: CheckContext, read: AuditRead, whose: string): 'held' | 'judged' | false {
  const first = read.pages[0];
  const data = (first?.json as { data?: unknown } | undefined)?.data;
  const tree = first ? statedTree(data, read.entries) : undefined;
  const numbering = numberingOf(read.entries);
  if (!first || !tree || !numbering) return false;
  if (read.entries.length !== tree.size || tree.leaves.some((l) => l === undefined)) {
    ctx.note(
      `the audit log of ${whose}: a Merkle root over ${tree.size} leaves, ${read.entries.length} entries read: the root not recomputed`,
    );
    return false;
  }
  const key = numbering.field;
  const order = read.entries
    .map((e, i) => ({ n: numbering.numberOf(e), leaf: tree.leaves[i] as Buffer }))
    .sort((a, b) => a.n - b.n);
  const recomputed = treeRoot(order.map((o) => o.leaf));
  const holds = recomputed.equals(tree.root);
  // Inclusion proofs that verify against the root recomputed over the leaves prove RFC 9162's construction:
  // then the stated root is judged by it, named or not (a root computed wrongly beside right paths).
  const proofs = merkleInclusions(data, entriesOf(first) ?? []) ?? [];
  const proven = proofs.some((p) => verifyInclusion({ ...p, root: recomputed, treeSize: tree.size }));
  const declared = declaresRfc9162(data) || proven;
  if (!holds && !declared) {
    ctx.note(
      `the audit log of ${whose}: a Merkle root over ${tree.size} leaves that RFC 9162's construction does not give, and the answer names no scheme: another construction, not judged`,
    );
    return false;
  }
  ctx.note(`the audit log of ${whose}: the Merkle root over its ${tree.size} leaves recomputed (RFC 9162 §2.1.1)`);
  ctx.expect.that(holds, {
    expected: `the audit log of ${whose}: the stated root is the RFC 9162 tree head over the ${tree.size} entries' leaf hashes in ${key} order (${proven && !holds ? "the construction by which the entries' inclusion proofs verify" : 'the scheme the answer names'})`,
    observed: `the root over the leaves read is ${treeRoot(order.map((o) => o.leaf)).toString('hex')}, the answer states ${tree.root.toString('hex')}`,
    exchange: first,
  });
  return holds ? 'held' : 'judged';
}
