import { type CheckContext, defineCheck } from '../runner/check.ts';
import { auditPageSize, auditPath, entriesOf } from './support/audit-log.ts';
import { declaresRfc9162, merkleInclusions, verifyInclusion } from './support/merkle-proof.ts';

export const merkleInclusion = defineCheck({
  name: 'audit.merkle-inclusion',
  title:
    "where the audit log's proof is a Merkle tree (a root and tree size, and per entry a leaf hash, its index and an inclusion proof), every entry's proof verifies against the root (RFC 9162)",
  // The interface shows no proof format. Judged where the answer has this shape and either names RFC 9162/6962
  // or some of its proofs verify by it (then the construction is that one); a Merkle tree of another
  // construction is the deployment's legal choice, noted and not judged.
  severity: 'MUST',
  section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
  tags: ['audit', 'security'],
  mutating: false,
  requires: ['token'],
  // After the other checks: the run's changes are in the log by then.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const limit = await auditPageSize(ctx);
    const ex = await ctx.call('GET', auditPath(), { query: { limit: String(limit) } });
    ctx.require(ex.status === 200, { expected: `GET ${auditPath()}?limit=${limit} answers 200`, exchange: ex });
    const entries = entriesOf(ex) ?? [];
    if (entries.length === 0)
      ctx.skip('the audit log is empty (or lists no entries the kit recognises): nothing to verify');
    const data = (ex.json as { data?: unknown } | undefined)?.data;
    const proofs = merkleInclusions(data, entries);
    if (!proofs)
      ctx.skip(
        'the proof is not a Merkle tree the kit recognises (a root and tree size, and per entry a leaf hash, index and inclusion proof)',
      );
    const failing = proofs.flatMap((p, i) => (verifyInclusion(p) ? [] : [i]));
    const declared = declaresRfc9162(data);
    if (failing.length === proofs.length && !declared)
      ctx.skip(
        "a Merkle-shaped proof none of whose inclusion proofs verifies by RFC 9162's construction, and the answer names no scheme: another construction, the deployment's legal choice",
      );
    ctx.note(
      `${proofs.length - failing.length} of ${proofs.length} inclusion proofs verify against the root${declared ? ' (the answer names RFC 9162/6962)' : ''}`,
    );
    ctx.expect.that(failing.length === 0, {
      expected: `every entry's inclusion proof verifies against the page's root (RFC 9162 §2.1.3.2)${declared ? ', the scheme the answer names' : ', as the others do'}`,
      observed: `${failing.length} do not: entries at positions ${failing.slice(0, 8).join(', ')} of the page`,
      exchange: ex,
    });
  },
});
