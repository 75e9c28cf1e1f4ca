// audit.integrity: the returned range of the audit log verified against its proof, where the proof is a
// format the kit recomputes (the simulator's declared sha256 chain over RFC 8785 JSON, RFC 9162 Merkle proofs).
import { verifyAuditRange } from '../../simulator/contract/audit-verify.ts';
import { CANONICALIZATION } from '../../simulator/contract/canonical-json.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { judgeMerkleInclusion, judgeMerkleRoot } from './audit-merkle.ts';
import {
  auditLargestPage,
  auditNextPage,
  auditPageSize,
  auditPath,
  entriesOf,
  readAuditLog,
} from './support/audit-log.ts';

const AUDIT = 'GET /api/public/v1/audit-log (appears in a sample call only)' as const;

/**
 * How far back the proof is verified: the newest page alone may hold none of the run's early changes (its
 * webhook registrations) once the run made many, so the pages the deployment offers are followed this far.
 */
const VERIFIED_ENTRIES = 500;

export const integrity = defineCheck({
  name: 'audit.integrity',
  title:
    'the returned range of the audit log verifies against its proof, when the proof is a format the kit recomputes (a declared sha256 hash chain over RFC 8785 JSON; RFC 9162 Merkle inclusion proofs or tree heads over the leaves)',
  // Judged only when the answer declares the format (the kit discovered it): then MUST; else skipped.
  severity: 'MUST',
  section: AUDIT,
  tags: ['audit', 'security'],
  mutating: false,
  requires: ['token'],
  // After the other checks: the run's changes (for both tenants) are in the logs by then.
  judgesRun: true,
  async run(ctx: CheckContext) {
    let limit = await auditLargestPage(ctx, VERIFIED_ENTRIES);
    const enough = (entries: unknown[]) => entries.length >= VERIFIED_ENTRIES;
    let read = await readAuditLog(ctx, enough, limit);
    // A documented maximum the log still refuses: the page size it took before.
    if (read.pages[0]?.status === 400 && limit !== (await auditPageSize(ctx))) {
      limit = await auditPageSize(ctx);
      read = await readAuditLog(ctx, enough, limit);
    }
    const ex = must(read.pages[0], 'readAuditLog reads at least one page');
    ctx.require(ex.status === 200, { expected: `GET ${auditPath()}?limit=${limit} answers 200`, exchange: ex });
    const entries = entriesOf(ex);
    if (entries?.length === 0) ctx.skip('the audit log is empty: nothing to verify yet');
    // The interface shows no proof format: only an answer that declares the simulator's (sha256 over
    // RFC 8785 canonical JSON), or carries RFC 9162 Merkle inclusion proofs (audit-merkle.ts), can be
    // recomputed here; any other format is the deployment's legal choice.
    // The root first: recomputed over the leaves, it proves the construction the inclusion proofs must follow.
    const root = judgeMerkleRoot(ctx, read, 'the tenant');
    const merkle = judgeMerkleInclusion(ctx, ex, 'the tenant', root === 'held') || root !== false;
    if (!declaresKnownFormat(ex)) {
      if (merkle) return;
      ctx.skip(
        `the proof is not one this check recomputes as a whole (an answer declaring algorithm sha256 and canonicalization ${CANONICALIZATION} in the simulator's fields, or RFC 9162 Merkle proofs or tree heads); the interface does not show the proof's format: its entries' own hashes are judged by audit.entry-hash, its links and stated head by audit.chain-links, a signature by audit.signature`,
      );
    }
    verify(ctx, ex, 'the tenant', limit);
    // Every further page carries its own proof of its range.
    for (const [i, page] of read.pages.slice(1).entries())
      if (page.status === 200 && (entriesOf(page)?.length ?? 0) > 0 && declaresKnownFormat(page))
        verify(ctx, page, `the tenant (page ${i + 2})`, limit, false);
    if (read.pages.length > 1) ctx.note(`verified ${read.pages.length} pages, ${read.entries.length} entries`);
    // A page that starts after the first entry hangs from its anchor and keeps its entries' numbers: the newest
    // two (a large page read from the log's start has the genesis as its anchor, right or wrong).
    const newest = await ctx.call('GET', auditPath(), { query: { limit: '2' } });
    if (newest.status === 200 && (entriesOf(newest)?.length ?? 0) > 0 && declaresKnownFormat(newest)) {
      verify(ctx, newest, 'the tenant (its newest two entries)', 2);
      // And the page after it, as the log offers it (an older page's proof is built by another code path).
      const after = await auditNextPage(ctx, newest);
      const page = after ? await ctx.call('GET', after) : undefined;
      if (page?.status === 200 && (entriesOf(page)?.length ?? 0) > 0 && declaresKnownFormat(page))
        verify(ctx, page, 'the tenant (the page after its first two entries)', 2, false);
    }
    // Each tenant's log carries its own proof ("traceable changes of the tenant"): the second tenant's too.
    const other = ctx.target.otherTenant;
    if (!other) return;
    const theirs = await ctx.call('GET', auditPath(), { tenant: other, query: { limit: String(limit) } });
    if (theirs.status === 200 && (entriesOf(theirs)?.length ?? 0) > 0 && declaresKnownFormat(theirs))
      verify(ctx, theirs, `tenant ${other}`, limit);
    else
      ctx.note(
        `the audit log of tenant ${other} not verified: ${theirs.status}, ${entriesOf(theirs)?.length ?? 'no'} entries`,
      );
  },
});

const proofOf = (ex: Exchange) =>
  (ex.json as { data?: { proof?: unknown } } | undefined)?.data?.proof as
    | { algorithm?: unknown; canonicalization?: unknown }
    | undefined;
const declaresKnownFormat = (ex: Exchange) => {
  const proof = proofOf(ex);
  return proof?.algorithm === 'sha256' && proof.canonicalization === CANONICALIZATION;
};
/** `first`: the log's first page read (no page before it), whose room to spare says it is the whole chain. */
function verify(ctx: CheckContext, ex: Exchange, whose: string, limit: number, first = true) {
  const entries = entriesOf(ex) ?? [];
  const result = verifyAuditRange(entries, proofOf(ex));
  // The same algorithm and canonicalization named in another proof's shape (its own fields instead of
  // fromSeq, toSeq, anchorPrevHash, headHash and chainHead) is another format: not recomputed here.
  if (!result.ok && result.reason === 'malformed_proof') {
    const why = `the audit log of ${whose}: its proof names sha256 over ${CANONICALIZATION} but not in the fields this kit recomputes (missing or of another form: ${result.message.replace(/^the proof lacks /, '')}): another proof format, not judged`;
    // The first log read decides whether anything is judged: a skip, not a pass.
    if (whose === 'the tenant') ctx.skip(why);
    ctx.note(why);
    return;
  }
  ctx.expect.that(result.ok, {
    expected: `the audit log of ${whose}: data.entries verify against data.proof (every hash recomputed, every link and the anchor and head checked)`,
    observed: result.ok ? '' : `${result.reason}: ${result.message}`,
    exchange: ex,
  });
  // A range from the first entry with room to spare on the page is the whole chain: it ends at the head.
  const proof = proofOf(ex) as { fromSeq?: unknown; toSeq?: unknown; headHash?: unknown; chainHead?: unknown };
  const head = proof.chainHead as { seq?: unknown; hash?: unknown } | undefined;
  if (result.ok && first && proof.fromSeq === 1 && entries.length < limit)
    ctx.expect.that(head?.seq === proof.toSeq && head?.hash === proof.headHash, {
      expected: `the audit log of ${whose} is read whole (seq 1 to ${String(proof.toSeq)}, fewer than ${limit} entries): its chain head is its last entry`,
      observed: `chainHead ${JSON.stringify(head)}, the range ends at seq ${String(proof.toSeq)} with hash ${String(proof.headHash)}`,
      exchange: ex,
    });
}
