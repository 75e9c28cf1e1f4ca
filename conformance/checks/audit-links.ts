import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { auditLargestPage, entriesOf, numberingOf, readAuditLog } from './support/audit-log.ts';
import { HASH, PREV } from './support/entry-hash.ts';

// A proof of integrity in any format the kit cannot recompute may still be a hash chain it can follow: entries
// that carry their own hash and the previous entry's. Where the entries are numbered one after another, each
// one's link names the hash of the one before it, whatever the hash function or canonical form (those are the
// deployment's, "Response fields and further parameters: not shown"). A log numbered across tenants (gaps in a
// tenant's numbers) says nothing about its links: only consecutive numbers are compared.

type Entry = Record<string, unknown>;

/** The field names of the entries, in the order they first appear. */
const fieldNames = (records: readonly Entry[]) => [...new Set(records.flatMap((r) => Object.keys(r)))];

/** The fields an entry list names its own hash and its link by, when every entry has both as strings. */
export function chainFields(entries: readonly unknown[]): { hash: string; prev: string } | undefined {
  const records = entries.filter((e): e is Entry => !!e && typeof e === 'object' && !Array.isArray(e));
  if (!records.length || records.length !== entries.length) return undefined;
  // The names every entry's fields go by, not the first entry's alone: the chain's first entry may leave its link
  // out (a null a JSON-B or Jackson writer omits), and a page read oldest first starts with it.
  const keys = fieldNames(records);
  const hash = keys.find((k) => HASH.test(k));
  // The link named after the same hash word where there is one (previousDigest beside digest).
  const word = hash ? HASH.exec(hash)?.[1]?.toLowerCase() : undefined;
  const links = keys.filter((k) => PREV.test(k));
  const prev = links.find((k) => PREV.exec(k)?.[1]?.toLowerCase() === word) ?? links[0];
  if (!hash || !prev) return undefined;
  // The chain's first entry may link to nothing (`null`, or no link at all): one such entry, the rest linked.
  const unlinked = records.filter((r) => typeof r[prev] !== 'string');
  if (
    !records.every((r) => typeof r[hash] === 'string') ||
    unlinked.length > 1 ||
    unlinked.some((r) => r[prev] !== null && r[prev] !== undefined)
  )
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
  const bySeq = new Map((entries as Entry[]).map((e) => [numbering.numberOf(e), e]));
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

/**
 * What an entry list lacks for a chain to follow, in words.
 * @example whyNoChain([{ seq: 1, digest: 'a' }]) // 'the entries carry an own hash (digest) but no link to the previous one …'
 */
export function whyNoChain(entries: readonly unknown[]): string {
  const keys = fieldNames(entries.filter((e): e is Entry => !!e && typeof e === 'object' && !Array.isArray(e)));
  const hash = keys.find((k) => HASH.test(k));
  const link = keys.find((k) => PREV.test(k));
  if (!hash && !link)
    return 'the entries carry no own hash and no previous hash under names the kit reads (hash, digest, checksum or mac; prev, previous or parent, alone or before those)';
  if (!hash) return `the entries carry a link (${link}) but no own hash the kit can name (hash, digest, checksum, mac)`;
  if (!link)
    return `the entries carry an own hash (${hash}) but no link to the previous one (prev…, previous…, parent…): not a chain (a Merkle tree's leaves?)`;
  if (!chainFields(entries)) return `not every entry carries ${hash} and ${link} as strings`;
  const numbering = numberingOf(entries);
  return numbering?.sequenceName
    ? `no two entries numbered one after the other (${numbering.field}) on the pages read`
    : 'the entries carry no consecutive numbers (seq, sequence, …)';
}

/** A chain's head named in the answer: head, headHash, chainHead, chain_head, latestHash, tip… */
const HEAD = /^(?:(?:chain_?)?head(?:_?(?:hash|digest))?|(?:latest|last|newest|tip)_?(?:hash|digest)|tip)$/i;

/**
 * The chain head an answer states beside its entries (a text, or an object's hash), as written; the first
 * found breadth first outside the entries.
 * @example statedHead({ entries: [], proof: { chainHead: { seq: 9, hash: 'ab' } } }, []) // { at: 'data.proof.chainHead', value: 'ab' }
 */
export function statedHead(data: unknown, entries: readonly unknown[]): { at: string; value: string } | undefined {
  let level: [string, unknown][] = [['data', data]];
  for (let depth = 0; depth < 3 && level.length; depth++) {
    const next: [string, unknown][] = [];
    for (const [at, v] of level) {
      if (!v || typeof v !== 'object' || Array.isArray(v) || v === entries) continue;
      for (const [k, x] of Object.entries(v)) {
        if (HEAD.test(k)) {
          const value =
            typeof x === 'string'
              ? x
              : x && typeof x === 'object'
                ? Object.entries(x).find(([n, h]) => HASH.test(n) && typeof h === 'string')?.[1]
                : undefined;
          if (typeof value === 'string') return { at: `${at}.${k}`, value };
        }
        next.push([`${at}.${k}`, x]);
      }
    }
    level = next;
  }
  return undefined;
}

/** Up to this many entries are followed (the pages the deployment offers). */
const LINKED_ENTRIES = 500;

export const chainLinks = defineCheck({
  name: 'audit.chain-links',
  title:
    "where audit entries carry their own hash and the previous one's, each consecutively numbered entry links to the hash of the entry before it (any hash format), and a head the answer states names the newest entry's hash",
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
    if (judged === 0) ctx.skip(`${whyNoChain(read.entries)}: no chain to follow`);
    ctx.note(`followed ${judged} links over ${read.entries.length} entries`);
    ctx.expect.that(broken.length === 0, {
      expected:
        'each entry names the hash of the entry numbered before it (a hash chain "including a proof of integrity")',
      observed: `${broken.length} broken link(s): ${broken.slice(0, 3).join('; ')}`,
      exchange: read.pages.at(-1) ?? first,
    });
    judgeHead(ctx, read.entries, first, read.exhausted);
  },
});

/**
 * A head the answer states (a chain head, a signed head) names the newest entry's hash: a head over nothing
 * read proves nothing of the entries. Judged where the newest entry is surely read (the first page lists
 * newest first, or the whole log was read) and the head is written as the entries' hashes are.
 */
function judgeHead(ctx: CheckContext, entries: readonly unknown[], first: Exchange, whole: boolean) {
  const fields = chainFields(entries);
  const numbering = numberingOf(entriesOf(first) ?? []);
  const head = statedHead((first.json as { data?: unknown } | undefined)?.data, entriesOf(first) ?? []);
  if (!fields || !numbering?.sequenceName || !head || !(numbering.direction === 'down' || whole)) return;
  const newest = (entries as Entry[]).reduce((a, b) => (numbering.numberOf(b) > numbering.numberOf(a) ? b : a));
  const own = String(newest[fields.hash]);
  if (own.length !== head.value.length)
    return void ctx.note(`${head.at} is not written as the entries' hashes are: not compared`);
  // Read oldest first over pages, the log may grow between the first answer and the last page: the head that
  // answer states is then an entry at or past its own page's newest, not necessarily the newest read in the end.
  const pageNewest = Math.max(...(entriesOf(first) ?? []).map((e) => numbering.numberOf(e as Entry)));
  const since =
    numbering.direction === 'down' ? [newest] : (entries as Entry[]).filter((e) => numbering.numberOf(e) >= pageNewest);
  const names = since.some((e) => String(e[fields.hash]).toLowerCase() === head.value.toLowerCase());
  if (names) ctx.note(`${head.at} names the newest entry's ${fields.hash}`);
  // Numbers with gaps: the tenant reads its own entries of a chain kept across tenants (or a service-wide one),
  // and the head may be another tenant's newer entry, which this tenant is not shown.
  else if (numberGaps(entries as Entry[], numbering.numberOf))
    return void ctx.note(
      `${head.at} names none of the entries read, whose numbers skip (a chain shared with entries this tenant is not shown): not compared`,
    );
  ctx.expect.that(names, {
    expected: `the head the answer states (${head.at}) is the ${fields.hash} of its newest entry (${numbering.field} ${String(newest[numbering.field])})`,
    observed: `${head.at} ${head.value.slice(0, 16)}…, the newest entry's ${fields.hash} ${own.slice(0, 16)}…`,
    exchange: first,
  });
}

/**
 * Whether the entries' numbers skip any (the log numbers entries this reader is not shown).
 * @example numberGaps([{ seq: 1 }, { seq: 3 }], (e) => Number(e.seq)) // true
 */
export function numberGaps(entries: readonly Entry[], numberOf: (e: Entry) => number): boolean {
  const numbers = [...new Set(entries.map(numberOf))].sort((a, b) => a - b);
  return numbers.some((n, i) => i > 0 && n - (numbers[i - 1] as number) > 1);
}
