// "Traceable changes of the tenant": every change stays reachable however the log is read. The same log read in
// small pages reaches the same entries as read in large ones: a page boundary that skips the entry beside it (a
// cursor made exclusive twice, an off-by-one offset) or repeats one loses or doubles a change. How the log pages
// is not shown (the kit follows whatever next page an answer offers, in whichever direction), nor which end a
// short page shows (the newest entries, the oldest, the newest in ascending order): only the entries are compared,
// not their order (audit.order judges that). `limit` is shown, within the range the deployment documents.
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { type AuditRead, auditPageSize, auditPath, numberingOf, readAuditLog } from './support/audit-log.ts';
import { documentedMinimum } from './support/documented-page.ts';
import { openApiExchange } from './support/openapi.ts';

/** The small page sizes tried (a deployment may refuse the smallest), and how many entries are read in them. */
const SMALL_PAGES = [4, 10] as const;
const COMPARED = 40;
/** How often the three reads are made before a log that keeps changing is left unjudged. */
const ATTEMPTS = 3;
/** Fewer entries of the small pages among the large read's leave too little to compare. */
const MIN_SHARED = 8;

/** An entry's identity: its number where the log numbers them, else its id (undefined: neither). */
function keyOf(entries: readonly unknown[]): ((e: unknown) => string) | undefined {
  const numbering = numberingOf(entries);
  if (numbering?.sequenceName) return (e) => String(numbering.numberOf(e));
  const ids = entries.map((e) => (e && typeof e === 'object' ? (e as { id?: unknown }).id : undefined));
  if (ids.every((i) => typeof i === 'string' || typeof i === 'number')) return (e) => String((e as { id: unknown }).id);
  return undefined;
}

/** The log read in pages of `size` (following the pages it offers) up to `enough` entries. */
const readInPages = (ctx: CheckContext, size: number, enough = COMPARED) =>
  readAuditLog(ctx, (entries) => entries.length >= enough, size);

/** The log read in the first small page size the deployment documents and answers (a skip where there is none). */
async function smallPages(ctx: CheckContext, large: number): Promise<{ read: AuditRead; size: number }> {
  const min = documentedMinimum((await openApiExchange(ctx)).json, auditPath(), 'limit') ?? 1;
  const sizes = SMALL_PAGES.filter((n) => n >= min && n < large);
  for (const size of sizes) {
    const read = await readInPages(ctx, size);
    if (read.pages[0]?.status === 200) return { read, size };
  }
  ctx.skip(
    sizes.length
      ? `GET ${auditPath()} refused every small page (limit ${sizes.join(', ')})`
      : `the log's page size (${large}) and documented minimum (${min}) leave no smaller page to compare`,
  );
}

/**
 * Where the small pages went wrong against the large read: entries repeated, and entries of the large read that
 * lie between the small pages' first and last (in the large read's order) but none of them reached.
 * @example pageGaps(['1', '2', '3', '4', '5'], ['5', '4', '2', '1']) // { repeated: [], skipped: ['3'], shared: 4 }
 */
export function pageGaps(large: readonly string[], small: readonly string[]) {
  const repeated = small.filter((k, i) => small.indexOf(k) !== i);
  const at = new Map(large.map((k, i) => [k, i]));
  const positions = small.flatMap((k) => (at.has(k) ? [at.get(k) as number] : []));
  if (!positions.length) return { repeated, skipped: [], shared: 0 };
  const reached = new Set(small);
  const [from, to] = [Math.min(...positions), Math.max(...positions)];
  const skipped = large.slice(from, to + 1).filter((k) => !reached.has(k));
  return { repeated: [...new Set(repeated)], skipped, shared: new Set(positions).size };
}

export const auditPagesAgree = defineCheck({
  name: 'audit.pages-agree',
  title:
    'the audit log read in small pages reaches the same entries as read in large ones: no entry beside a page boundary skipped or repeated',
  severity: 'SHOULD',
  section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
  tags: ['audit'],
  mutating: false,
  requires: ['token'],
  judgesRun: true,
  async run(ctx: CheckContext) {
    // The kit's page size respects the deployment's documented maximum; the large read reaches past the small one.
    const large = await auditPageSize(ctx);
    // Read in large pages before and after the small ones: a log that changed meanwhile (a refusal recorded, a
    // cleanup of another check) is read again, up to ATTEMPTS times, and not compared if it never held still.
    let compared: { a: string[]; b: string[]; small: AuditRead; size: number } | undefined;
    let changed = '';
    for (let attempt = 0; attempt < ATTEMPTS && !compared; attempt++) {
      const before = await readInPages(ctx, large, 2 * COMPARED);
      const first = before.pages[0] as Exchange;
      if (first.status !== 200) ctx.skip(`the audit log answered ${first.status} (see audit.records-change)`);
      if (!before.entries.length) ctx.skip('the audit log is empty: nothing to page through yet');
      const { read: small, size } = await smallPages(ctx, large);
      if (small.pages.length < 2)
        ctx.skip(`the log read ${size} entries a page offered no second page (${small.entries.length} entries)`);
      const after = await readInPages(ctx, large, 2 * COMPARED);
      const key = keyOf([...before.entries, ...small.entries]);
      if (!key) ctx.skip('the entries carry neither a number nor an id to compare them by');
      const [a, b, c] = [before.entries.map(key), small.entries.map(key), after.entries.map(key)];
      if (a.join('\n') === c.join('\n')) compared = { a, b, small, size };
      else changed = `first entries ${a.slice(0, 3).join(', ')}, then ${c.slice(0, 3).join(', ')}`;
    }
    if (!compared) ctx.skip(`the log changed between two reads in large pages each time (${changed}): not compared`);
    const { a, b, small, size } = compared;
    const { repeated, skipped, shared } = pageGaps(a, b);
    if (shared < MIN_SHARED)
      ctx.skip(
        `only ${shared} of the ${b.length} entries read ${size} a page are among the ${a.length} read ${large} a page`,
      );
    ctx.note(
      `compared ${shared} entries read ${size} a page (${small.pages.length} pages) with ${a.length} read ${large} a page`,
    );
    ctx.expect.that(repeated.length === 0 && skipped.length === 0, {
      expected: `GET ${auditPath()} read ${size} entries a page reaches every entry the log lists read ${large} a page between its first and last, each once (a page boundary skips or repeats none)`,
      observed: `${skipped.length ? `skipped ${skipped.slice(0, 5).join(', ')}` : ''}${skipped.length && repeated.length ? '; ' : ''}${repeated.length ? `repeated ${repeated.slice(0, 5).join(', ')}` : ''}`,
      exchange: small.pages[1] ?? small.pages[0],
    });
  },
});
