import { ROUTE_BY_ID } from '../../../simulator/contract/route-table.ts';
import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';
import { must } from '../../runner/invariant.ts';

export { nextPage, nextPages, pageNamed } from './audit-paging.ts';

import { nextPage, nextPages, pageNamed } from './audit-paging.ts';
import { documentedMaximum } from './documented-page.ts';
import { theOneList } from './one-list.ts';
import { deref, type OpenApiLike, openApiExchange, operationLocation } from './openapi.ts';

/** Entries the kit asks for per page: enough to find its own recent changes among concurrent checks'. */
export const AUDIT_LIMIT = 50;
/** Pages the kit follows at most looking for its changes (a long log is not read to its end). */
const MAX_PAGES = 40;

export const auditPath = () => must(ROUTE_BY_ID.get('getAuditLog'), 'the contract defines getAuditLog').path;

/** Page sizes tried, in order, when the deployment refuses the kit's (the range of `limit` is not shown). */
const SMALLER_PAGES = [20, 10];

/**
 * The page size the kit asks the audit log for: AUDIT_LIMIT, or the maximum of `limit` the deployment's
 * own document gives when lower; and when the log still refuses it with 400, the first of 20 and 10 it
 * answers. The interface shows `limit` but not its range, so a deployment may allow 20 at most. Once a run.
 * @example const limit = await auditPageSize(ctx); ctx.call('GET', auditPath(), { query: { limit: String(limit) } });
 */
export function auditPageSize(ctx: CheckContext): Promise<number> {
  return ctx.shared('audit-page-size', async () => {
    const { json } = await openApiExchange(ctx);
    const max = documentedMaximum(json, auditPath(), 'limit');
    const first = max !== undefined && max >= 1 ? Math.min(AUDIT_LIMIT, Math.floor(max)) : AUDIT_LIMIT;
    for (const size of [first, ...SMALLER_PAGES.filter((n) => n < first)]) {
      const ex = await ctx.call('GET', auditPath(), { query: { limit: String(size) } });
      if (ex.status !== 400) return size;
    }
    return first;
  });
}

/**
 * The largest page the deployment's own document allows for `limit`, at most `cap`, else the kit's page size:
 * a proof verified over more entries than the newest page reaches back to the run's first changes.
 */
export async function auditLargestPage(ctx: CheckContext, cap: number): Promise<number> {
  const size = await auditPageSize(ctx);
  const max = documentedMaximum((await openApiExchange(ctx)).json, auditPath(), 'limit');
  return max !== undefined && max > size ? Math.min(cap, Math.floor(max)) : size;
}

/** The query parameters a document gives GET `path` (names, in order), `limit` left out: where a cursor may go. */
function documentedQuery(doc: unknown, path: string): string[] {
  if (!doc || typeof doc !== 'object') return [];
  const loc = operationLocation(doc as OpenApiLike, 'GET', path);
  if (!loc) return [];
  return ([loc.op, loc.item] as { parameters?: unknown }[]).flatMap((owner) =>
    (Array.isArray(owner.parameters) ? owner.parameters : []).flatMap((raw) => {
      const p = deref(doc, raw, []).value as { name?: unknown; in?: unknown } | undefined;
      return p?.in === 'query' && typeof p.name === 'string' && p.name !== 'limit' ? [p.name] : [];
    }),
  );
}

/**
 * The list of entries in an audit-log answer: data.entries (the simulator's name), else the one list in
 * data, else the one list of records nested in an object of data (one-list.ts). The interface shows no field names, so any name is a legal choice.
 */
export function entriesOf(ex: Exchange): unknown[] | undefined {
  return theOneList((ex.json as { data?: unknown } | undefined)?.data, 'entries');
}

export interface AuditRead {
  /** Every page read, first to last. */
  pages: Exchange[];
  /** Their entries in the order read. */
  entries: unknown[];
  /** The last page offered no further page (or the search stopped at MAX_PAGES). */
  exhausted: boolean;
  /** Read from the last page the log names, back (readAuditTail): its newest pages, not its first. */
  tail?: true;
}

/**
 * The next page an audit-log answer offers, by the ways nextPages knows and the query parameters the
 * deployment's document gives the read (a keyset `before`).
 * @example const older = await auditNextPage(ctx, newestTwo); // '/api/public/v1/audit-log?limit=2&before=41'
 */
export async function auditNextPage(ctx: CheckContext, ex: Exchange): Promise<string | undefined> {
  return nextPages(ex, documentedQuery((await openApiExchange(ctx)).json, auditPath()))[0];
}

/**
 * Reads the audit log from its first page (?limit= the kit's page size) and follows the pages the deployment
 * offers until `enough(entries)` holds: a log listed oldest first and paged is read to its newest entries.
 * @example const read = await readAuditLog(ctx, (e) => JSON.stringify(e).includes(id));
 */
export async function readAuditLog(
  ctx: CheckContext,
  enough: (entries: unknown[]) => boolean,
  pageSize?: number,
  tenant?: string,
): Promise<AuditRead> {
  const limit = pageSize ?? (await auditPageSize(ctx));
  const as = tenant ? { tenant } : {};
  const first = await ctx.call('GET', auditPath(), { query: { limit: String(limit) }, ...as });
  const read: AuditRead = { pages: [first], entries: [...(entriesOf(first) ?? [])], exhausted: false };
  const seen = new Set<string>();
  const documented = documentedQuery((await openApiExchange(ctx)).json, auditPath());
  let last = first;
  while (!enough(read.entries) && read.pages.length < MAX_PAGES && last.status === 200) {
    // The first way of asking whose page is not the one just read (a parameter the deployment does not
    // know is ignored, and the first page comes back). When every way brings the same page back, the next
    // page is out of the kit's reach: reading stops there, the page is not counted twice.
    const before = JSON.stringify(entriesOf(last) ?? null);
    let page: Exchange | undefined;
    const ways = nextPages(last, documented).filter((n) => !seen.has(n));
    for (const next of ways) {
      seen.add(next);
      const answer = await ctx.call('GET', next, as);
      // A 400 refuses the way of asking (a token sent as a parameter documented as an integer), not the log:
      // the next way is tried. Another refusal ends the reading with that answer.
      if (answer.status === 400) continue;
      if (answer.status !== 200 || JSON.stringify(entriesOf(answer) ?? null) !== before) {
        page = answer;
        break;
      }
    }
    if (!page) {
      // No next page offered: the log ends here (nothing to say).
      if (!ways.length) break;
      ctx.note(
        `the audit log's next page could not be reached (each way of asking for it answered the same page): read ${read.entries.length} entries`,
      );
      break;
    }
    last = page;
    read.pages.push(last);
    read.entries.push(...(entriesOf(last) ?? []));
  }
  read.exhausted = last.status !== 200 || !nextPage(last);
  return read;
}

/**
 * The log read from its first page until `found` holds, and where a log read from its start stops short of its
 * end (an oldest-first log with a long history), again from the last page it names, where the newest changes are.
 * @example const read = await readLogFinding(ctx, (entries) => namesId(JSON.stringify(entries), id));
 */
export async function readLogFinding(ctx: CheckContext, found: (entries: unknown[]) => boolean): Promise<AuditRead> {
  const read = await readAuditLog(ctx, found);
  const first = read.pages[0];
  if (first?.status !== 200 || found(read.entries) || read.exhausted) return read;
  const tail = await readAuditTail(ctx, first, found);
  return tail && found(tail.entries) ? tail : read;
}

/**
 * The newest pages of a log read from its start that stopped short of its end (the kit's page budget): the page
 * the first answer names as the last, then the pages before it (at most three more) until `enough` holds. An
 * oldest-first log with a long history keeps the kit's own changes there. Undefined when the log names no last page.
 * @example const tail = await readAuditTail(ctx, read.pages[0], (e) => e.length >= 2);
 */
export async function readAuditTail(
  ctx: CheckContext,
  first: Exchange,
  enough: (entries: unknown[]) => boolean,
): Promise<AuditRead | undefined> {
  const documented = documentedQuery((await openApiExchange(ctx)).json, auditPath());
  const last = pageNamed(first, 'last', documented);
  if (!last) return undefined;
  let page = await ctx.call('GET', last);
  if (page.status !== 200 || !entriesOf(page)) return undefined;
  const tail: AuditRead = {
    pages: [page],
    entries: [...(entriesOf(page) ?? [])],
    exhausted: !nextPage(page),
    tail: true,
  };
  while (!enough(tail.entries) && tail.pages.length < 4) {
    const before = pageNamed(page, 'prev', documented);
    if (!before) break;
    page = await ctx.call('GET', before);
    if (page.status !== 200) break;
    tail.pages.unshift(page);
    tail.entries = [...(entriesOf(page) ?? []), ...tail.entries];
  }
  return tail;
}

/**
 * A numeric field every entry has and that only grows or only shrinks along the list (seq, sequence,
 * …): the direction the log is ordered in by its own numbering, if any.
 */
export function numberingOf(entries: readonly unknown[]): Numbering | undefined {
  const records = entries.filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null);
  if (records.length < 2 || records.length !== entries.length) return undefined;
  const keys = Object.keys(must(records[0], 'at least two records'));
  const fields = keys.filter((k) => records.every((r) => typeof r[k] === 'number'));
  // Whole numbers written as digit strings (proto3 JSON's int64, a database's bigint id) number a log too, but only
  // under a name for a place in it: a digit string elsewhere may be any code.
  const digitFields = keys.filter((k) => records.every((r) => typeof r[k] === 'string' && DIGITS.test(r[k] as string)));
  // A name for the entry's place in the log: `seq`, `sequence`, `sequenceNumber`, `seq_no`, `position`, `entryNumber`,
  // `id` (the entry's own number), in that preference; one numbered one after another first (a per-tenant
  // `sequence` beside an `id` drawn from a sequence shared by every table, with gaps).
  const consecutive = (k: string) =>
    records.every((r, i) => i === 0 || Math.abs(Number(r[k]) - Number(records[i - 1]?.[k])) === 1);
  const rank = (k: string) =>
    (consecutive(k) ? 0 : 10) +
    (/^(?:seq|sequence)$/i.test(k) ? 0 : SEQUENCE_COMPOUND.test(k) ? 1 : /^id$/i.test(k) ? 3 : 2);
  const named = (names: string[]) =>
    names
      .filter((k) => SEQUENCE_NAME.test(k) || SEQUENCE_COMPOUND.test(k))
      .sort((a, b) => rank(a) - rank(b) || names.indexOf(a) - names.indexOf(b))[0];
  const sequence = named(fields) ?? named(digitFields);
  const field = sequence ?? fields[0];
  if (!field) return undefined;
  const numberOf = (e: unknown): number => Number((e as Record<string, unknown>)[field]);
  const values = records.map(numberOf);
  const up = values.every((v, i) => i === 0 || v > must(values[i - 1], 'i - 1 indexes values'));
  const down = values.every((v, i) => i === 0 || v < must(values[i - 1], 'i - 1 indexes values'));
  return { field, direction: up ? 'up' : down ? 'down' : 'none', sequenceName: sequence !== undefined, numberOf };
}

/** How a log numbers its entries: the field, its direction, whether its name says so, and an entry's number. */
export interface Numbering {
  field: string;
  direction: 'up' | 'down' | 'none';
  sequenceName: boolean;
  numberOf(entry: unknown): number;
}

const SEQUENCE_NAME = /^(?:seq|sequence|n|index|position|number|id)$/i;
const SEQUENCE_COMPOUND = /^(?:seq|sequence|entry|log|audit|record)[-_]?(?:no|num|number|nr|index|id)$/i;
// At most 15 digits (zero-padded ones too, "000042"): every such number is exact as a double, so order and
// succession hold.
const DIGITS = /^\d{1,15}$/;

/**
 * Where in a log's entries a change is named. An entry's own top-level `id` is the log's counter, not the
 * change: ids counted per table (mangrove's "41" for both an entry and a connection) would otherwise place a
 * change where another entry merely shares its number. A log naming changes by nothing but that top-level
 * `id` (an entry that is the change) is still found, by the id alone. An id of digits alone is also another
 * table's id (webhook 41 beside connection 41): where `kind` is given and some of the entries naming the number
 * also name the kind ("connection"), those are the change's.
 * @example positionsOf([{ id: '2', target: '1' }, { id: '3', target: '2' }], '2') // [1]
 */
export function positionsOf(entries: readonly unknown[], id: string, kind?: string): number[] {
  const named = (strip: boolean) =>
    entries.flatMap((e, i) => {
      const own =
        strip && typeof e === 'object' && e !== null && !Array.isArray(e) && String((e as { id?: unknown }).id) === id;
      const rest = own ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'id')) : e;
      return namesId(JSON.stringify(rest), id) ? [i] : [];
    });
  const apart = named(true);
  const found = apart.length ? apart : named(false);
  if (!kind || !/^\d+$/.test(id)) return found;
  // The kind as a value of its own ("resource_type":"connection"), in a path or name with the id
  // ("connections/41", "connection:41") or as the id's field ("connection_id":"41"); an event name listed by a
  // receiver's registration ("connection.created") is not the kind.
  const k = kind.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const kindOf = new RegExp(`"${k}s?"|${k}s?[/:]${id}(?!\\d)|"${k}_?id":"?${id}(?!\\d)`, 'i');
  const ofKind = found.filter((i) => kindOf.test(JSON.stringify(entries[i])));
  return ofKind.length ? ofKind : found;
}

/**
 * Whether a text names the id as a whole, not inside a longer token: numeric ids ("76") are also pieces of
 * sequence numbers, other ids and timestamps (oak's numeric ids matched those and misplaced the kit's changes).
 * @example namesId('{"target":"connections/76"}', '76') // true; namesId('{"seq":176}', '76') // false
 */
export function namesId(text: string, id: string): boolean {
  // An id of digits alone (counted per tenant or table) names the entity where it ends a text ("5",
  // "connection:5") or is a number under another entity's id name (`"resourceId":5`), never as any number
  // (`"seq":5`) nor as the entry's own `"id":5` (the log's own counter).
  if (/^\d+$/.test(id)) return new RegExp(`(?<![\\w.-])${id}(?=")|"\\w+(?:_id|Id|ID)":${id}(?![\\w.])`).test(text);
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.-])${escaped}(?![\\w-])`).test(text);
}
