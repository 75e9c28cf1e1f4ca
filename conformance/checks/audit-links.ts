import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { auditLargestPage, entriesOf, numberingOf, readAuditLog } from './support/audit-log.ts';

// A proof of integrity in any format the kit cannot recompute may still be a hash chain it can follow: entries
// that carry their own hash and the previous entry's. Where the entries are numbered one after another, each
// one's link names the hash of the one before it, whatever the hash function or canonical form (those are the
// deployment's, "Response fields and further parameters: not shown"). A log numbered across tenants (gaps in a
// tenant's numbers) says nothing about its links: only consecutive numbers are compared.

const HASH = /^(?:hash|entry_?hash|digest|entry_?digest)$/i;
const PREV = /^(?:prev|prev_?hash|previous_?hash|parent_?hash|prev_?digest|previous)$/i;

type Entry = Record<string, unknown>;

/** The fields an entry list names its own hash and its link by, when every entry has both as strings. */
export function chainFields(entries: readonly unknown[]): { hash: string; prev: string } | undefined {
  const records = entries.filter((e): e is Entry => !!e && typeof e === 'object' && !Array.isArray(e));
  const first = records[0];
  if (!first || records.length !== entries.length) return undefined;
  const hash = Object.keys(first).find((k) => HASH.test(k));
  const prev = Object.keys(first).find((k) => PREV.test(k));
  if (!hash || !prev || !records.every((r) => typeof r[hash] === 'string' && typeof r[prev] === 'string'))
    return undefined;
  return { hash, prev };
}

/**
 * Entries whose link does not name the hash of the entry numbered just before them.
 * @example brokenLinks([{ seq: 1, hash: 'a', prevHash: '0' }, { seq: 2, hash: 'b', prevHash: 'x' }]) // ['seq 2: prevHash x, the hash of seq 1 is a']
 */
export function brokenLinks(entries: readonly unknown[]): { judged: number; broken: string[] } {
  const fields = chainFields(entries);
  const numbering = numberingOf(entries);
  if (!fields || !numbering?.sequenceName) return { judged: 0, broken: [] };
  const bySeq = new Map((entries as Entry[]).map((e) => [e[numbering.field] as number, e]));
  let judged = 0;
  const broken: string[] = [];
  for (const [seq, e] of bySeq) {
    const before = bySeq.get(seq - 1);
    if (!before) continue;
    judged++;
    if (e[fields.prev] !== before[fields.hash])
      broken.push(
        `${numbering.field} ${seq}: ${fields.prev} ${String(e[fields.prev]).slice(0, 16)}…, the ${fields.hash} of ${numbering.field} ${seq - 1} is ${String(before[fields.hash]).slice(0, 16)}…`,
      );
  }
  return { judged, broken };
}

/** Up to this many entries are followed (the pages the deployment offers). */
const LINKED_ENTRIES = 500;

export const chainLinks = defineCheck({
  name: 'audit.chain-links',
  title:
    "where audit entries carry their own hash and the previous one's, each consecutively numbered entry links to the hash of the entry before it (any hash format)",
  severity: 'SHOULD',
  section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
  tags: ['audit', 'security'],
  mutating: false,
  requires: ['token'],
  judgesRun: true,
  async run(ctx: CheckContext) {
    const limit = await auditLargestPage(ctx, LINKED_ENTRIES);
    const read = await readAuditLog(ctx, (entries) => entries.length >= LINKED_ENTRIES, limit);
    const first = read.pages[0] as Exchange;
    if (first.status !== 200 || !entriesOf(first)?.length)
      ctx.skip(
        first.status === 200
          ? 'the audit log is empty: nothing to follow yet'
          : `the audit log answered ${first.status} (see audit.records-change)`,
      );
    const { judged, broken } = brokenLinks(read.entries);
    if (judged === 0)
      ctx.skip(
        'the entries carry no own hash and previous hash under names the kit reads (hash/prevHash, digest/prev, …), or no consecutive numbers: no chain to follow',
      );
    ctx.note(`followed ${judged} links over ${read.entries.length} entries`);
    ctx.expect.that(broken.length === 0, {
      expected:
        'each entry names the hash of the entry numbered before it (a hash chain "including a proof of integrity")',
      observed: `${broken.length} broken link(s): ${broken.slice(0, 3).join('; ')}`,
      exchange: read.pages.at(-1) ?? first,
    });
  },
});
