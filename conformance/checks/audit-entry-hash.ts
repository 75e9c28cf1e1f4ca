import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { auditLargestPage, entriesOf, numberingOf, readAuditLog } from './support/audit-log.ts';
import { discoverEntryHash, type EntryHashRule, entryHashHolds, statedFormulas } from './support/entry-hash.ts';

// The proof's format is the deployment's ("Response fields and further parameters: not shown"); what the kit
// can hold it to is its own formula. Declared in the profile, every entry must recompute under it. Found
// among the common formulas, it is the deployment's only when it recomputes most entries (a digest matched by
// chance is impossible): the few it does not are entries changed after they were hashed. Fewer matches, or
// many misses, and the kit does not know the formula: skipped, never failed.

/** Up to this many entries are recomputed (the pages the deployment offers). */
const RECOMPUTED_ENTRIES = 500;
/** A discovered formula is judged only when it recomputes at least this many entries. */
const DISCOVERED_AT_LEAST = 3;
/**
 * ... and misses no more than this many (or a tenth): an entry changed after it was hashed is one or a few; a
 * formula that misses many is a near neighbour of the deployment's (its nested members left unsorted, say).
 */
const DISCOVERED_MISSES = 3;

type Entry = Record<string, unknown>;

const describe = (r: EntryHashRule) =>
  `${r.field} = ${r.algorithm}(${JSON.stringify(r.input)})${r.exclude.length ? ` without ${r.exclude.join(', ')}` : ''}, ${r.encoding}`;

export const entryHash = defineCheck({
  name: 'audit.entry-hash',
  title:
    "each audit entry's own hash recomputes from the entry as served, by the formula the deployment profile declares (auditEntryHash) or a common one the kit finds that recomputes most entries",
  severity: 'MUST',
  section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
  tags: ['audit', 'security'],
  mutating: false,
  requires: ['token'],
  judgesRun: true,
  async run(ctx: CheckContext) {
    const declared = ctx.deployment.auditEntryHash;
    if (declared === null) ctx.skip('the deployment profile says its audit entries carry no hash to recompute');
    const limit = await auditLargestPage(ctx, RECOMPUTED_ENTRIES);
    const read = await readAuditLog(ctx, (entries) => entries.length >= RECOMPUTED_ENTRIES, limit);
    const first = read.pages[0] as Exchange;
    if (first.status !== 200 || !entriesOf(first)?.length)
      ctx.skip(
        first.status === 200
          ? 'the audit log is empty: nothing to recompute yet'
          : `the audit log answered ${first.status} (see audit.records-change)`,
      );
    const entries = read.entries.filter((e): e is Entry => !!e && typeof e === 'object' && !Array.isArray(e));
    // A formula the answer states in field names (`previousHash|sequence|at`) is tried first.
    const stated = statedFormulas((first.json as { data?: unknown } | undefined)?.data, entriesOf(first) ?? []);
    const found = declared ? undefined : discoverEntryHash(entries, stated);
    const rule = declared ?? found?.rule;
    if (!rule)
      ctx.skip(
        "no common formula (the entry as canonical, sorted or served JSON, without its hash and in turn without its link or its proof parts; alone, after an RFC 6962 leaf's 0x00 byte or after the previous hash; SHA-2 or SHA-3 of 256/384/512 bits; hex or base64) recomputes an entry: the proof is of a format the kit does not know (declare auditEntryHash in the deployment profile)",
      );
    const numbering = numberingOf(entries);
    const name = (e: Entry, i: number) =>
      numbering ? `${numbering.field} ${String(e[numbering.field])}` : `entry ${i + 1} read`;
    const broken = entries.flatMap((e, i) => (entryHashHolds(e, rule) ? [] : [name(e, i)]));
    const held = entries.length - broken.length;
    if (found && (held < DISCOVERED_AT_LEAST || broken.length > Math.max(DISCOVERED_MISSES, entries.length / 10)))
      ctx.skip(
        `the common formula ${describe(rule)} recomputes ${held} of ${entries.length} entries: ${held < DISCOVERED_AT_LEAST ? `too few to tell the deployment's formula (at least ${DISCOVERED_AT_LEAST})` : 'too many misses to be edits: a near neighbour of its formula'} (declare auditEntryHash in the deployment profile)`,
      );
    ctx.note(`${declared ? 'declared' : 'found'}: ${describe(rule)}; ${held} of ${entries.length} entries recomputed`);
    ctx.expect.that(broken.length === 0, {
      expected: `every audit entry's ${rule.field} recomputes by ${declared ? 'the formula the deployment profile declares' : 'the formula that recomputes the others'} (${describe(rule)}): "including a proof of integrity"`,
      observed: `${broken.length} of ${entries.length} entries do not: ${broken.slice(0, 5).join(', ')}${broken.length > 5 ? ', …' : ''}`,
      exchange: read.pages.at(-1) ?? first,
    });
  },
});
