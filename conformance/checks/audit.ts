import { verifyAuditRange } from '../../simulator/contract/audit-verify.ts';
import { CANONICALIZATION } from '../../simulator/contract/canonical-json.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { entryHash } from './audit-entry-hash.ts';
import { chainLinks } from './audit-links.ts';
import { judgeMerkleInclusion, judgeMerkleRoot } from './audit-merkle.ts';
import { proofPresent } from './audit-proof.ts';
import {
  type AuditRead,
  auditLargestPage,
  auditPageSize,
  auditPath,
  entriesOf,
  namesId,
  numberingOf,
  ordersShownBy,
  readAuditLog,
} from './support/audit-log.ts';
import { otherTenantTraced } from './support/audit-other-tenant.ts';
import { createLabelledConnection } from './support/connections.ts';
import { readEventually } from './support/eventually.ts';

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
    const merkle = judgeMerkleInclusion(ctx, ex, 'the tenant') || judgeMerkleRoot(ctx, read, 'the tenant');
    if (!declaresKnownFormat(ex)) {
      if (merkle) return;
      ctx.skip(
        `the proof is neither the format this kit recomputes as declared (algorithm sha256, canonicalization ${CANONICALIZATION}) nor RFC 9162 Merkle inclusion proofs; the interface does not show the proof's format`,
      );
    }
    verify(ctx, ex, 'the tenant', limit);
    // Every further page carries its own proof of its range.
    for (const [i, page] of read.pages.slice(1).entries())
      if (page.status === 200 && (entriesOf(page)?.length ?? 0) > 0 && declaresKnownFormat(page))
        verify(ctx, page, `the tenant (page ${i + 2})`, limit);
    if (read.pages.length > 1) ctx.note(`verified ${read.pages.length} pages, ${read.entries.length} entries`);
    // A page that starts after the first entry hangs from its anchor and keeps its entries' numbers: the newest
    // two (a large page read from the log's start has the genesis as its anchor, right or wrong).
    const newest = await ctx.call('GET', auditPath(), { query: { limit: '2' } });
    if (newest.status === 200 && (entriesOf(newest)?.length ?? 0) > 0 && declaresKnownFormat(newest))
      verify(ctx, newest, 'the tenant (its newest two entries)', 2);
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
function verify(ctx: CheckContext, ex: Exchange, whose: string, limit: number) {
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
  if (result.ok && proof.fromSeq === 1 && entries.length < limit)
    ctx.expect.that(head?.seq === proof.toSeq && head?.hash === proof.headHash, {
      expected: `the audit log of ${whose} is read whole (seq 1 to ${String(proof.toSeq)}, fewer than ${limit} entries): its chain head is its last entry`,
      observed: `chainHead ${JSON.stringify(head)}, the range ends at seq ${String(proof.toSeq)} with hash ${String(proof.headHash)}`,
      exchange: ex,
    });
}

interface AuditScenario {
  created: { id?: string; ex: Exchange; alt: boolean }[];
  /** The log read from its first page until both changes were found or no further page was offered. */
  read: AuditRead;
  log: Exchange;
}

/** Two labelled connections created one after the other, then the log read (paged as offered): once per run. */
function auditScenario(ctx: CheckContext): Promise<AuditScenario> {
  return ctx.shared('audit-scenario', async () => {
    const created: AuditScenario['created'] = [];
    const found = (entries: unknown[]) => {
      const text = JSON.stringify(entries);
      return created.every((c) => !c.id || namesId(text, c.id));
    };
    // Read again while the log lags the creations (a log served from a replica, or written by a queue), within
    // listConsistencyWaitMs.
    const readFound = () =>
      readEventually(
        ctx,
        () => readAuditLog(ctx, found),
        (r) => r.pages[0]?.status !== 200 || found(r.entries),
      );
    // The second at the alternate address when there is one: the same interface, the tenant's changes alike.
    // It is made once the first is in the log: a log written by a queue may record two changes made a moment
    // apart in either order, and the order the kit judges is the one it made them in.
    for (let i = 0; i < 2; i++) {
      const alt = i === 1 && ctx.target.altBaseUrl !== undefined;
      const c = await createLabelledConnection(ctx, 'audit', alt ? { base: 'alt' } : {});
      created.push({ ex: c.ex, alt, ...(c.id ? { id: c.id } : {}) });
      if (i === 0 && c.id) await readFound();
    }
    const read = await readFound();
    return { created, read, log: must(read.pages.at(-1), 'readAuditLog reads at least one page') };
  });
}

/** Where in the entries read each created connection is named (none: nowhere). */
function positions(s: AuditScenario): number[][] {
  const texts = s.read.entries.map((e) => JSON.stringify(e));
  return s.created.map(({ id }) => (id ? texts.flatMap((t, i) => (namesId(t, id) ? [i] : [])) : []));
}

export const recordsChange = defineCheck({
  name: 'audit.records-change',
  title: 'a change the kit makes shows up in the audit log (its connection id appears in an entry)',
  severity: 'MUST',
  section: AUDIT,
  tags: ['audit'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const limit = await auditPageSize(ctx);
    const s = await auditScenario(ctx);
    const first = must(s.read.pages[0], 'readAuditLog reads at least one page');
    for (const c of s.created)
      ctx.require(c.id !== undefined, { expected: 'a labelled connection is created to be traced', exchange: c.ex });
    ctx.require(first.status === 200 && entriesOf(first) !== undefined, {
      expected: `GET ${auditPath()}?limit=${limit} answers 200 with a list of entries`,
      exchange: first,
    });
    const at = positions(s);
    const numbering = numberingOf(entriesOf(first) ?? []);
    // A log listed oldest first whose paging the kit cannot discover keeps the newest entries out of
    // reach: the interface shows no further parameters, so the kit cannot judge rather than fail.
    if (
      at.some((p) => p.length === 0) &&
      s.read.pages.length === 1 &&
      numbering?.direction === 'up' &&
      (entriesOf(first)?.length ?? 0) >= limit
    )
      ctx.skip(
        `the audit log lists its entries oldest first (${numbering.field} grows) and offers no further page the kit can discover (no Link rel=next, no next… field): the kit's newest changes are out of reach of ?limit=${limit}`,
      );
    at.forEach((p, i) => {
      ctx.expect.that(p.length > 0, {
        expected: `the creation of connection ${s.created[i]?.id}${s.created[i]?.alt ? ' (made at the alternate base URL)' : ''} is traceable in the audit log (read ${s.read.pages.length} page${s.read.pages.length === 1 ? '' : 's'}, ${s.read.entries.length} entries, asking for ${limit} a page)`,
        observed: 'no entry names it',
        exchange: s.log,
      });
    });
    // "limit (number of entries)": a page of one, once the log has entries, is not empty. More than one is
    // noted, not failed: the limit's bounds are not shown (a deployment may keep a smallest page).
    const one = await ctx.call('GET', auditPath(), { query: { limit: '1' } });
    const listed = entriesOf(one);
    if (one.status === 200 && listed) {
      ctx.expect.that(listed.length > 0, {
        expected: `GET ${auditPath()}?limit=1 lists an entry ("limit: number of entries"; the log holds the kit's changes)`,
        observed: 'no entries',
        exchange: one,
      });
      if (listed.length > 1) ctx.note(`GET ${auditPath()}?limit=1 listed ${listed.length} entries (a smallest page)`);
    } else ctx.note(`GET ${auditPath()}?limit=1 answered ${one.status}: a page of one is not judged`);
    await otherTenantTraced(ctx, limit);
  },
});

export const auditOrder = defineCheck({
  name: 'audit.order',
  title:
    'the audit log lists entries in one order, newest or oldest first (discovered from two changes of the kit), at most `limit` per page',
  severity: 'SHOULD',
  section: AUDIT,
  tags: ['audit'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const limit = await auditPageSize(ctx);
    const s = await auditScenario(ctx);
    for (const page of s.read.pages) {
      const entries = entriesOf(page);
      if (!entries) ctx.skip('no list of entries (see audit.records-change)');
      ctx.expect.that(entries.length <= limit, {
        expected: `?limit=${limit} returns at most ${limit} entries per page`,
        observed: `${entries.length} entries`,
        exchange: page,
      });
    }
    // The kit's two changes are in the log by now, so a limit of 1 is smaller than what it holds
    // (a limit of limit may not be, early in a run against a fresh deployment).
    const one = await ctx.call('GET', auditPath(), { query: { limit: '1' } });
    const few = one.status === 200 ? entriesOf(one) : undefined;
    if (few)
      ctx.expect.that(few.length <= 1, {
        expected: '?limit=1 returns at most 1 entry ("limit (number of entries)")',
        observed: `${few.length} entries`,
        exchange: one,
      });
    const [older = [], newer = []] = positions(s);
    if (older.length === 0 || newer.length === 0)
      ctx.skip("the kit's changes are not both in the log (see audit.records-change)");
    // The interface does not say which end comes first: the kit's own two changes show it. A change named
    // again in between (the first connection activated before the second was created) can leave both
    // orders possible; a log whose entries show neither is judged by where each change is first named.
    const shown = ordersShownBy(older, newer);
    const possible = shown.length
      ? shown
      : [must(newer[0], 'named') < must(older[0], 'named') ? 'newest first' : 'oldest first'];
    const numbering = numberingOf(s.read.entries);
    const direction = (o: string) => (o === 'newest first' ? 'down' : 'up');
    const order = possible.find((o) => numbering?.direction === direction(o)) ?? must(possible[0], 'one order');
    const listed = possible.length > 1 && numbering?.direction !== direction(order) ? possible.join(' or ') : order;
    ctx.note(`the audit log lists ${listed}${s.read.pages.length > 1 ? `, over ${s.read.pages.length} pages` : ''}`);
    if (!numbering?.sequenceName) return;
    const expected = direction(order);
    ctx.expect.that(numbering.direction === expected, {
      expected: `${numbering.field} ${expected === 'down' ? 'decreases' : 'increases'} from each entry to the next (the log lists ${order})`,
      observed:
        numbering.direction === 'none'
          ? `${numbering.field} is in no consistent order`
          : `${numbering.field} ${numbering.direction === 'up' ? 'increases' : 'decreases'} against the order of the kit's changes`,
      exchange: s.log,
    });
  },
});

export const auditChecks = [integrity, entryHash, chainLinks, proofPresent, recordsChange, auditOrder];
