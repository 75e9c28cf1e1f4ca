// How the audit log offers its next page, read from an answer: the interface shows no paging ("Response fields
// and further parameters: not shown"), so every common way is recognised: a Link header, an X-Next-Page header,
// a body link (HAL, JSON:API, OData), a next… field, a numbered page that says more follow, a continuation token.
import type { Exchange } from '../../client/http-client.ts';

const LINK_NEXT = /<([^>]+)>\s*;[^,]*\brel="?next"?/i;

/**
 * The next page of an audit-log answer, as a path with query, if the answer offers one: a Link header
 * with rel=next, or a field of data (or of an object in data) named next…: a URL or path is followed
 * as is, a cursor value is sent back under the field's name without "next" (nextCursor: cursor=…;
 * next: cursor=…), a number as page=….
 * @example nextPage(ex) // '/api/public/v1/audit-log?limit=50&after=120'
 */
export function nextPage(ex: Exchange): string | undefined {
  return nextPages(ex)[0];
}

/**
 * Every way to ask for the next page the answer allows, likeliest first (nextPage): a cursor value is
 * also sent back under the field's own name (AWS's nextToken is asked as nextToken=…), and as cursor=…;
 * the parameter is not shown, so the reader tries the next one when a page comes back unchanged.
 * The query parameters the deployment's document gives the operation (`documented`, `before` say) come first:
 * its own word on where the value goes.
 * @example nextPages(ex) // ['/api/public/v1/audit-log?limit=50&token=abc', '…?limit=50&nextToken=abc', '…&cursor=abc']
 */
export function nextPages(ex: Exchange, documented: readonly string[] = []): string[] {
  const here = new URL(ex.url);
  const asPath = (u: URL) => `${u.pathname}${u.search}`;
  const link = LINK_NEXT.exec(ex.headers.link ?? '')?.[1];
  if (link) return [asPath(new URL(link, here))];
  // Pagination headers (Kaminari's and GitLab's X-Next-Page: the next page's number; empty on the last page).
  const nextNumber = ex.headers['x-next-page'];
  if (nextNumber && /^\d+$/.test(nextNumber.trim())) {
    const url = new URL(here);
    url.searchParams.set(documented.find((d) => /^page(?:_?number)?$/i.test(d)) ?? 'page', nextNumber.trim());
    return [asPath(url)];
  }
  const data = (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
  if (!data || typeof data !== 'object') return [];
  const holders = [data, ...Object.values(data).filter((v) => v && typeof v === 'object' && !Array.isArray(v))];
  // Hypermedia links in the body: HAL's _links.next.href, JSON:API's links.next (a string or {href}).
  for (const holder of holders as Record<string, unknown>[]) {
    const next = ((holder._links ?? holder.links) as Record<string, unknown> | undefined)?.next;
    const href = typeof next === 'string' ? next : (next as { href?: unknown } | undefined)?.href;
    if (typeof href === 'string' && href) return [asPath(new URL(href, here))];
  }
  // A documented page size or number is never where a token goes (a `pageSize` documented as an integer).
  const tokens = documented.filter((d) => !PAGE_WORDS.test(d));
  const offered = nextField(holders as Record<string, unknown>[], here, tokens);
  if (offered) return offered;
  const indexed = nextPageIndex(holders as Record<string, unknown>[], here, documented);
  if (indexed) return [asPath(indexed)];
  const keyset = keysetNext(data, here, documented);
  if (keyset) return [asPath(keyset)];
  // A continuation token under a name of its own (Kubernetes' metadata.continue, a pageToken, a cursor), or
  // under a query parameter the document gives the operation: sent back under that name.
  for (const holder of holders as Record<string, unknown>[])
    for (const [key, value] of Object.entries(holder)) {
      if ((typeof value !== 'string' || value === '') && typeof value !== 'number') continue;
      if (!CONTINUATION.test(key) && !tokens.includes(key)) continue;
      return [...new Set([key, ...tokens, 'cursor'])].map((param) => {
        const url = new URL(here);
        url.searchParams.set(param, String(value));
        return asPath(url);
      });
    }
  // Last: an offset page that says more follow (no cursor, link or page number offered).
  const offset = nextOffset(holders as Record<string, unknown>[], here, documented);
  return offset ? [asPath(offset)] : [];
}

/** A page's size or index, never a continuation token. */
const PAGE_WORDS = /^(?:limit|size|page[-_]?size|per[-_]?page|page|page[-_]?number|number|offset|count|total\w*)$/i;

/**
 * A numbered page that says more follow (Spring Data's `number` with `last: false` or `totalPages`, a
 * `pageNumber` with `hasNext`): the same query with the page parameter one higher, under the name the
 * document gives the operation (`page` else).
 */
function nextPageIndex(holders: Record<string, unknown>[], here: URL, documented: readonly string[]): URL | undefined {
  for (const holder of holders) {
    const pageable = holder.pageable as Record<string, unknown> | undefined;
    const current = [
      holder.number,
      holder.pageNumber,
      holder.currentPage,
      holder.current_page,
      holder.page,
      pageable?.pageNumber,
    ].find((v): v is number => Number.isSafeInteger(v));
    if (current === undefined) continue;
    // The count of pages under the names frameworks give it (Spring's totalPages, a pageCount, total_pages).
    const total = [holder.totalPages, holder.pageCount, holder.total_pages, holder.page_count].find((v): v is number =>
      Number.isSafeInteger(v),
    );
    const more =
      holder.last === false ||
      holder.hasNext === true ||
      holder.hasMore === true ||
      (typeof total === 'number' && current + 1 < total) ||
      // Laravel's 1-based current_page up to its last_page.
      (Number.isSafeInteger(holder.last_page) && current < (holder.last_page as number));
    if (!more) continue;
    // A 1-based page (a currentPage of 1 on the first read) asks for 2, a 0-based one for 1.
    const url = new URL(here);
    url.searchParams.set(documented.find((d) => /^page(?:_?number)?$/i.test(d)) ?? 'page', String(current + 1));
    return url;
  }
  return undefined;
}

/** A page's position as a count of entries skipped (`offset`, `skip`, `start`). */
const OFFSET = /^(?:offset|skip|start(?:[-_]?index)?)$/i;
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * An offset page that says more follow (`hasMore`, `has_more`, `hasNext`, or a `total` beyond it): the same query
 * with the offset moved past the page's entries, under the document's offset parameter, the answer's own offset
 * field's name, the query's, or `offset` where the page is sized by a `limit`.
 * @example nextOffset([{ items: [a, b], limit: 2, hasMore: true }], url('…?limit=2'), []) // …?limit=2&offset=2
 */
function nextOffset(holders: Record<string, unknown>[], here: URL, documented: readonly string[]): URL | undefined {
  for (const holder of holders) {
    const list = Object.values(holder).find(Array.isArray) as unknown[] | undefined;
    if (!list?.length) continue;
    const field = Object.entries(holder).find(([k, v]) => OFFSET.test(k) && isCount(v));
    const asked = [...here.searchParams.keys()].find((k) => OFFSET.test(k));
    const sized = isCount(holder.limit) || here.searchParams.has('limit');
    const param = documented.find((d) => OFFSET.test(d)) ?? field?.[0] ?? asked ?? (sized ? 'offset' : undefined);
    if (!param) continue;
    const current = field ? (field[1] as number) : Number(here.searchParams.get(param) ?? 0) || 0;
    const next = current + list.length;
    const total = [holder.total, holder.totalCount, holder.total_count, holder.totalResults].find(isCount);
    const more =
      holder.hasMore === true ||
      holder.has_more === true ||
      holder.hasNext === true ||
      holder.has_next === true ||
      holder.more === true ||
      (total !== undefined && (field !== undefined || asked !== undefined) && next < total);
    if (!more) continue;
    const url = new URL(here);
    url.searchParams.set(param, String(next));
    return url;
  }
  return undefined;
}

/** Keyset parameters a document may give a log read newest first (`before`) or oldest first (`after`). */
const KEYSET = /^(?:before|until|after|since)(?:[-_]?seq(?:uence)?)?$/i;

/**
 * Where a page says nothing of the next one but the document gives the read a keyset parameter (`before`,
 * `after`): the page's entries' sequence numbers bound the next page, the lowest sent as `before`, the
 * highest as `after` (the simulator's own `?before=<seq>`).
 * @example keysetNext({ entries: [{ seq: 9 }, { seq: 8 }] }, url, ['limit', 'before']) // …?limit=2&before=8
 */
function keysetNext(data: Record<string, unknown>, here: URL, documented: readonly string[]): URL | undefined {
  const param = documented.find((d) => KEYSET.test(d));
  const list = Object.values(data).find(Array.isArray) as unknown[] | undefined;
  if (!param || !list?.length) return undefined;
  const seqs = list
    .map((e) => (e && typeof e === 'object' ? (e as Record<string, unknown>) : {}))
    .map((e) => e.seq ?? e.sequence ?? e.sequenceNumber)
    .filter((v): v is number => Number.isSafeInteger(v));
  if (seqs.length !== list.length) return undefined;
  const backwards = /^(?:before|until)/i.test(param);
  const bound = backwards ? Math.min(...seqs) : Math.max(...seqs);
  // Nothing comes before the first entry (numbered from 1, or 0).
  if (backwards && bound <= 1) return undefined;
  const url = new URL(here);
  url.searchParams.set(param, String(bound));
  return url;
}

/** Names a continuation token goes by when it is not called next…. */
const CONTINUATION = /^(?:continue|continuation(?:[-_]?token)?|page[-_]?token|end[-_]?cursor|cursor|after)$/i;

/** A field named next…: a URL or path followed as is, a value sent back as a query parameter. */
function nextField(holders: Record<string, unknown>[], here: URL, documented: readonly string[]): string[] | undefined {
  const asPath = (u: URL) => `${u.pathname}${u.search}`;
  for (const holder of holders) {
    for (const [key, value] of Object.entries(holder)) {
      // An annotation's namespace aside (OData's `@odata.nextLink`).
      const name = key.replace(/^@?(?:odata\.)?/i, '');
      if (!/^next/i.test(name) || value === null || value === undefined || value === '' || value === false) continue;
      if (typeof value === 'string' && (value.startsWith('/') || /^https?:\/\//.test(value)))
        return [asPath(new URL(value, here))];
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const rest = name.replace(/^next[-_]?/i, '');
      const named =
        typeof value === 'number'
          ? rest.toLowerCase() || 'page'
          : rest
            ? rest.charAt(0).toLowerCase() + rest.slice(1)
            : 'cursor';
      const params = [...new Set([...documented, named, ...(typeof value === 'string' ? [key, 'cursor'] : [])])];
      return params.map((param) => {
        const url = new URL(here);
        url.searchParams.set(param, String(value));
        return asPath(url);
      });
    }
  }
  return undefined;
}

const LINK_REL = (rel: string) => new RegExp(`<([^>]+)>\\s*;[^,]*\\brel="?${rel}"?`, 'i');

/**
 * The page the answer names as the log's last (or, with `rel: 'prev'`, the one before it), if it names one: a
 * Link header, a body link (HAL's _links.last.href, JSON:API's links.last), a last…/prev… URL field (Laravel's
 * last_page_url), or a numbered page with its count (Spring Data's `number` and `totalPages`, Laravel's
 * `current_page` and `last_page`). An oldest-first log longer than the kit reads page by page keeps its newest
 * entries there.
 * @example pageNamed(ex, 'last') // '/api/public/v1/audit-log?page=41&size=20'
 */
export function pageNamed(ex: Exchange, rel: 'last' | 'prev', documented: readonly string[] = []): string | undefined {
  const here = new URL(ex.url);
  const asPath = (u: URL) => `${u.pathname}${u.search}`;
  const link = LINK_REL(rel === 'prev' ? '(?:prev|previous)' : rel).exec(ex.headers.link ?? '')?.[1];
  if (link) return asPath(new URL(link, here));
  const data = (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
  if (!data || typeof data !== 'object') return undefined;
  const holders = [
    data,
    ...Object.values(data).filter((v) => v && typeof v === 'object' && !Array.isArray(v)),
  ] as Record<string, unknown>[];
  for (const holder of holders) {
    const links = (holder._links ?? holder.links) as Record<string, unknown> | undefined;
    const named = links?.[rel] ?? (rel === 'prev' ? links?.previous : undefined);
    const href = typeof named === 'string' ? named : (named as { href?: unknown } | undefined)?.href;
    if (typeof href === 'string' && href) return asPath(new URL(href, here));
    for (const [key, value] of Object.entries(holder))
      if (
        new RegExp(`^${rel === 'prev' ? 'prev(?:ious)?' : 'last'}[-_]?(?:page)?[-_]?(?:url|link|href)$`, 'i').test(
          key,
        ) &&
        typeof value === 'string' &&
        (value.startsWith('/') || /^https?:\/\//.test(value))
      )
        return asPath(new URL(value, here));
  }
  for (const holder of holders) {
    const current = [holder.number, holder.pageNumber, holder.currentPage, holder.current_page].find((v): v is number =>
      Number.isSafeInteger(v),
    );
    const total = [holder.totalPages, holder.total_pages, holder.lastPage, holder.last_page].find((v): v is number =>
      Number.isSafeInteger(v),
    );
    if (current === undefined || total === undefined) continue;
    // Laravel's last_page is the last page's own number; a count of pages is 0-based when the first page is 0.
    const oneBased = current >= 1 || holder.last_page !== undefined || holder.lastPage !== undefined;
    const last = oneBased ? total : total - 1;
    const target = rel === 'last' ? last : current - 1;
    if (target < (oneBased ? 1 : 0) || target === current) return undefined;
    const url = new URL(here);
    url.searchParams.set(documented.find((d) => /^page(?:_?number)?$/i.test(d)) ?? 'page', String(target));
    return asPath(url);
  }
  return undefined;
}
