import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../client/http-client.ts';
import { type AuditRead, nextPage, nextPages, numberingOf, pageNamed } from './audit-log.ts';
import { ordersOfRead, ordersShownBy } from './audit-order.ts';

const answer = (data: unknown, headers: Record<string, string> = {}): Exchange => ({
  method: 'GET',
  url: 'https://api.example/api/public/v1/audit-log?limit=50',
  requestHeaders: {},
  status: 200,
  headers,
  text: '',
  json: { ok: true, data },
  durationMs: 1,
  attempts: 1,
});

describe('audit-log paging and order, discovered', () => {
  it('moves an offset past the page where an offset page says more follow (hasMore, has_more, a total beyond it)', () => {
    const two = [{ id: 1 }, { id: 2 }];
    expect(nextPage(answer({ entries: two, limit: 10, hasMore: true }))).toBe(
      '/api/public/v1/audit-log?limit=50&offset=2',
    );
    expect(nextPage(answer({ entries: two, offset: 4, has_more: true }))).toBe(
      '/api/public/v1/audit-log?limit=50&offset=6',
    );
    expect(nextPage(answer({ entries: two, skip: 0, total: 3 }))).toBe('/api/public/v1/audit-log?limit=50&skip=2');
    expect(nextPage(answer({ entries: two, offset: 1, total: 3 }))).toBeUndefined();
    expect(nextPage(answer({ entries: two, limit: 10, hasMore: false }))).toBeUndefined();
  });

  it('follows a Link rel=next, a next path, or sends a cursor back under its own name', () => {
    expect(nextPage(answer({ log: [] }, { link: '</api/public/v1/audit-log?page=2>; rel="next"' }))).toBe(
      '/api/public/v1/audit-log?page=2',
    );
    expect(nextPage(answer({ log: [], next: '/api/public/v1/audit-log?limit=50&after=9' }))).toBe(
      '/api/public/v1/audit-log?limit=50&after=9',
    );
    expect(nextPage(answer({ log: [], paging: { nextCursor: 'abc' } }))).toBe(
      '/api/public/v1/audit-log?limit=50&cursor=abc',
    );
    expect(nextPage(answer({ log: [], next: 'opaque' }))).toBe('/api/public/v1/audit-log?limit=50&cursor=opaque');
    expect(nextPage(answer({ log: [], nextPage: 3 }))).toBe('/api/public/v1/audit-log?limit=50&page=3');
    expect(nextPage(answer({ log: [], next: null }))).toBeUndefined();
    expect(nextPage(answer({ entries: [] }))).toBeUndefined();
    // AWS's nextToken is asked back as nextToken=…: the parameter is not shown, every likely name is offered.
    expect(nextPages(answer({ log: [], nextToken: 'eyJ9' }))).toEqual([
      '/api/public/v1/audit-log?limit=50&token=eyJ9',
      '/api/public/v1/audit-log?limit=50&nextToken=eyJ9',
      '/api/public/v1/audit-log?limit=50&cursor=eyJ9',
    ]);
  });

  it('sends a continuation token back under its own name or a documented parameter, not an empty one', () => {
    // Kubernetes' list metadata: `continue` under data.metadata, "" on the last page.
    expect(nextPages(answer({ items: [], metadata: { continue: 'eyJ2Ijo' } }), ['continue'])).toEqual([
      '/api/public/v1/audit-log?limit=50&continue=eyJ2Ijo',
      '/api/public/v1/audit-log?limit=50&cursor=eyJ2Ijo',
    ]);
    expect(nextPages(answer({ items: [], metadata: { continue: '' } }))).toEqual([]);
    expect(nextPage(answer({ items: [], page: { pageToken: 't2' } }))).toBe(
      '/api/public/v1/audit-log?limit=50&pageToken=t2',
    );
    // A field named as a query parameter the document gives the operation.
    expect(nextPages(answer({ items: [], olderThan: 120 }), ['olderThan'])[0]).toBe(
      '/api/public/v1/audit-log?limit=50&olderThan=120',
    );
    expect(nextPage(answer({ items: [], olderThan: 120 }))).toBeUndefined();
  });

  it("follows a body's hypermedia link and a numbered page that says more follow", () => {
    const hal = {
      _embedded: { auditEntries: [] },
      _links: { next: { href: '/api/public/v1/audit-log?page=1&size=50' } },
    };
    expect(nextPage(answer(hal))).toBe('/api/public/v1/audit-log?page=1&size=50');
    expect(nextPage(answer({ items: [], links: { next: '/api/public/v1/audit-log?p=2' } }))).toBe(
      '/api/public/v1/audit-log?p=2',
    );
    // Spring Data's page without links: number 0 of 3, or last: false; the last page asks for nothing.
    expect(nextPage(answer({ content: [], number: 0, totalPages: 3, size: 50 }))).toBe(
      '/api/public/v1/audit-log?limit=50&page=1',
    );
    expect(nextPages(answer({ content: [], pageable: { pageNumber: 2 }, last: false }), ['pageNumber'])[0]).toBe(
      '/api/public/v1/audit-log?limit=50&pageNumber=3',
    );
    expect(nextPage(answer({ content: [], number: 2, totalPages: 3, last: true }))).toBeUndefined();
    // A `page` of a `pageCount` (hawthorn's delivery log), Laravel's `current_page` up to its `last_page`.
    expect(nextPage(answer({ deliveries: [], page: 0, size: 20, pageCount: 3 }))).toBe(
      '/api/public/v1/audit-log?limit=50&page=1',
    );
    expect(nextPage(answer({ deliveries: [], page: 2, size: 20, pageCount: 3 }))).toBeUndefined();
    expect(nextPage(answer({ data: [], current_page: 2, last_page: 3 }))).toBe(
      '/api/public/v1/audit-log?limit=50&page=3',
    );
    expect(nextPage(answer({ data: [], current_page: 3, last_page: 3 }))).toBeUndefined();
    // OData's annotation: followed as a URL.
    expect(
      nextPage(answer({ value: [], '@odata.nextLink': 'https://api.example/api/public/v1/audit-log?$skiptoken=2' })),
    ).toBe('/api/public/v1/audit-log?$skiptoken=2');
    // Kaminari's X-Next-Page header, under the page parameter the document names.
    expect(nextPages(answer({ entries: [] }, { 'x-next-page': '3' }), ['per_page', 'page'])[0]).toBe(
      '/api/public/v1/audit-log?limit=50&page=3',
    );
    expect(nextPage(answer({ entries: [] }, { 'x-next-page': '' }))).toBeUndefined();
    // A page size the document names is no continuation token.
    expect(nextPages(answer({ content: [], size: 50 }), ['page', 'size'])).toEqual([]);
  });

  it("pages by a documented keyset parameter from the page's sequence numbers, never before the first entry", () => {
    const page = answer({ entries: [{ seq: 9 }, { seq: 8 }] });
    expect(nextPages(page, ['limit', 'before'])[0]).toBe('/api/public/v1/audit-log?limit=50&before=8');
    expect(nextPages(page, ['after'])[0]).toBe('/api/public/v1/audit-log?limit=50&after=9');
    expect(nextPages(answer({ entries: [{ seq: 2 }, { seq: 1 }] }), ['before'])).toEqual([]);
    // Undocumented, or entries without numbers: no keyset page.
    expect(nextPages(page)).toEqual([]);
    expect(nextPages(answer({ entries: [{ id: 'a' }] }), ['before'])).toEqual([]);
  });

  it('finds the last page and the one before it the log names (links, URL fields, numbered pages)', () => {
    const P = '/api/public/v1/audit-log';
    expect(
      pageNamed(answer({ log: [] }, { link: `<${P}?page=9>; rel="last", <${P}?page=2>; rel="next"` }), 'last'),
    ).toBe(`${P}?page=9`);
    expect(
      pageNamed(answer({ content: [], _links: { last: { href: `https://api.example${P}?page=40` } } }), 'last'),
    ).toBe(`${P}?page=40`);
    expect(pageNamed(answer({ data: [], last_page_url: `${P}?page=7` }), 'last')).toBe(`${P}?page=7`);
    // Spring Data: 0-based `number` of `totalPages`; Laravel: 1-based `current_page` up to `last_page`.
    expect(pageNamed(answer({ content: [], page: { number: 0, totalPages: 12 } }), 'last')).toBe(
      `${P}?limit=50&page=11`,
    );
    expect(pageNamed(answer({ data: [], current_page: 1, last_page: 5 }), 'last', ['page'])).toBe(
      `${P}?limit=50&page=5`,
    );
    expect(pageNamed(answer({ content: [], page: { number: 11, totalPages: 12 } }), 'prev')).toBe(
      `${P}?limit=50&page=10`,
    );
    // One page only: no last page to jump to.
    expect(pageNamed(answer({ content: [], page: { number: 0, totalPages: 1 } }), 'last')).toBeUndefined();
    expect(pageNamed(answer({ content: [] }), 'last')).toBeUndefined();
  });

  it('reads the direction of a sequence field', () => {
    expect(numberingOf([{ seq: 3 }, { seq: 2 }, { seq: 1 }])).toMatchObject({
      field: 'seq',
      direction: 'down',
      sequenceName: true,
    });
    expect(numberingOf([{ n: 1 }, { n: 2 }])).toMatchObject({ field: 'n', direction: 'up', sequenceName: true });
    // A longer name for the place in the log (sassafras: `sequenceNumber`), taken over another number of the entry.
    expect(
      numberingOf([
        { at: 5, sequenceNumber: 1 },
        { at: 9, sequenceNumber: 2 },
      ]),
    ).toMatchObject({
      field: 'sequenceNumber',
      direction: 'up',
      sequenceName: true,
    });
    // A per-tenant sequence numbered one after another is the numbering, not an id with gaps listed first
    // (palmetto: one database sequence for every table, `sequence` per tenant).
    expect(
      numberingOf([
        { id: 1031, sequence: 3 },
        { id: 1012, sequence: 2 },
        { id: 1004, sequence: 1 },
      ]),
    ).toMatchObject({ field: 'sequence', direction: 'down' });
    expect(numberingOf([{ seq: 2 }, { seq: 3 }, { seq: 1 }])?.direction).toBe('none');
    expect(numberingOf([{ what: 'x' }, { what: 'y' }])).toBeUndefined();
    // Whole numbers as digit strings (proto3 JSON's int64, cherry's `id`) number a log under a name for a place in it,
    // read as numbers ("10" after "9"); a digit string under any other name is a code, not a numbering.
    const strings = numberingOf([
      { id: '10', at: 't' },
      { id: '9', at: 't' },
    ]);
    expect(strings).toMatchObject({ field: 'id', direction: 'down', sequenceName: true });
    expect(strings?.numberOf({ id: '10' })).toBe(10);
    expect(numberingOf([{ code: '1' }, { code: '2' }])).toBeUndefined();
    expect(numberingOf([{ seq: '000009' }, { seq: '000010' }])?.direction).toBe('up');
  });

  it("reads the log's order from where it names the kit's two changes, one after the other", () => {
    expect(ordersShownBy([1], [0])).toEqual(['newest first']);
    expect(ordersShownBy([0], [1])).toEqual(['oldest first']);
    // The older change named again after the newer one (activated in between): either order fits.
    expect(ordersShownBy([0, 2], [1])).toEqual(['newest first', 'oldest first']);
    // Both named twice, newest first: [activation 2, activation 1, creation 2, creation 1].
    expect(ordersShownBy([1, 3], [0, 2])).toEqual(['newest first']);
    // The newer change named on both sides of every mention of the older one: no order fits.
    expect(ordersShownBy([1], [0, 2])).toEqual([]);
    expect(ordersShownBy([], [0])).toEqual([]);
  });

  it('reads the order from a read of the log only where it can lack neither creation', () => {
    const page = { status: 200 } as AuditRead['pages'][number];
    const entries = [{ seq: 7, requestId: 'req_b' }, { seq: 8, target: 'a' }, { seq: 9 }];
    const whole: AuditRead = { pages: [page], entries, exhausted: true };
    // The whole log, short of a full page: the positions decide ([creation b, activation a]: newest first).
    expect(ordersOfRead(whole, 50, { positions: [1] }, { positions: [0] })).toEqual(['newest first']);
    // A full page and no further one (a tail), or a search stopped with pages left: the older creation may lie
    // before it, so either order fits.
    expect(ordersOfRead(whole, 3, { positions: [1] }, { positions: [0] })).toEqual(['newest first', 'oldest first']);
    expect(ordersOfRead({ ...whole, exhausted: false }, 50, { positions: [1] }, { positions: [0] })).toHaveLength(2);
    // Both creations found by their request ids decide, whatever else the read lacks.
    const both = { ...whole, entries: [{ seq: 7, requestId: 'req_a' }, ...entries], exhausted: false };
    expect(
      ordersOfRead(both, 3, { positions: [0, 2], requestId: 'req_a' }, { positions: [1], requestId: 'req_b' }),
    ).toEqual(['oldest first']);
    // Read from the last page back: oldest first.
    expect(ordersOfRead({ ...whole, tail: true }, 50, { positions: [1] }, { positions: [0] })).toEqual([
      'oldest first',
    ]);
  });
});
