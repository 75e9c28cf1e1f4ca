import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/** Round 57, part 2: lists at their limits (24 capabilities, 120 multi-byte letters, filters matching nothing, two filters, letter case). */
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const FILTERS = ['capability', 'providerId', 'category'] as const;
const filtersOf = (c: ProxyCall) => FILTERS.filter((f) => c.search.get(f) !== null);
const NON_ASCII = /[^\t\n\r -~]/;
/** Cuts a text to at most `bytes` bytes of UTF-8 without splitting a letter. */
const cutBytes = (s: string, bytes: number) => {
  let out = '';
  let used = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (used + n > bytes) break;
    out += ch;
    used += n;
  }
  return out;
};

export const ROUND57_INPUTS: UnseenViolation[] = [
  {
    name: 'listed-24-capability-connection-loses-last-entry',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items; Connection: capabilities | array of object (a connection created with exactly 24 capabilities, listed)',
    answer(c, a) {
      // The list joins capability rows with a per-connection LIMIT 23 ("fewer than 24") written when the limit was introduced.
      home(c);
      if (!isGet(c, '/connections') || a.status !== 200) return;
      for (const con of (a.json.data?.connections ?? []) as Rec[])
        if (Array.isArray(con?.capabilities) && con.capabilities.length === 24) con.capabilities.length = 23;
    },
  },
  {
    name: 'replay-of-24-capability-creation-conflicts',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (a creation with exactly 24 capabilities, repeated unchanged)',
    answer(c, a) {
      // The stored fingerprint is taken over a body column that only holds 23 list items, so the full repeat never matches.
      home(c);
      const caps = bodyOf(c.body).capabilities;
      if (
        isCreate(c) &&
        a.status === 200 &&
        a.json.meta?.replayed === true &&
        Array.isArray(caps) &&
        caps.length === 24
      )
        refuse(a, 409, 'idempotency_conflict', 'The idempotency key was already used with different content.');
    },
  },
  {
    name: 'replayed-multibyte-scope-label-cut-at-255-bytes',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again; Limits: scopeLabel | length 2 to 120 (a label of up to 120 letters that take several bytes each, repeated)',
    answer(c, a) {
      // The replay store keeps the answer's label in a VARCHAR(255) byte column; long labels of multi-byte letters lose their tail.
      home(c);
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true) return;
      const label = a.json.data?.scopeLabel;
      if (typeof label === 'string' && NON_ASCII.test(label) && Buffer.byteLength(label, 'utf8') > 255)
        a.json.data.scopeLabel = cutBytes(label, 255);
    },
  },
  {
    name: 'connectors-filter-matching-nothing-answered-not-found',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope; GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector) (a filter that matches no connector)',
    answer(c, a) {
      // The repository's findManyOrThrow raises NotFound on an empty result and the error mapper turns it into 404.
      home(c);
      if (isGet(c, '/connectors') && a.status === 200 && filtersOf(c).length > 0 && a.json.data?.count === 0)
        refuse(a, 404, 'not_found', 'The entry does not exist.');
    },
  },
  {
    name: 'providers-filter-matching-nothing-lists-null',
    statement:
      'GET /api/public/v1/providers: data: count (integer), providers (array of Provider) (a category that matches no provider)',
    answer(c, a) {
      // The ORM returns null for an empty filtered query and the presenter passes it on as the list.
      home(c);
      if (isGet(c, '/providers') && a.status === 200 && c.search.get('category') !== null && a.json.data?.count === 0)
        a.json.data.providers = null;
    },
  },
  {
    name: 'connectors-two-filters-skip-first-match',
    statement:
      'GET /api/public/v1/connectors: Query parameter capability, providerId, category (two filters together restrict the list to the connectors matching both)',
    answer(c, a) {
      // With two filters the query goes through the paged search path, whose OFFSET starts at 1 instead of 0.
      home(c);
      if (!isGet(c, '/connectors') || a.status !== 200 || filtersOf(c).length < 2) return;
      const list = a.json.data?.connectors;
      if (!Array.isArray(list) || list.length === 0) return;
      list.shift();
      if (typeof a.json.data.count === 'number') a.json.data.count = list.length;
    },
  },
  {
    name: 'connectors-capability-filter-matched-case-insensitively',
    statement:
      'GET /api/public/v1/connectors: capability | string | no (a capability filter differing from a catalog id only in letter case)',
    request(c) {
      // The filter column has a case-insensitive collation (utf8mb4_general_ci), so "POS.Orders.Read" finds "pos.orders.read".
      home(c);
      const cap = c.search.get('capability');
      if (isGet(c, '/connectors') && cap !== null && cap !== cap.toLowerCase())
        c.search.set('capability', cap.toLowerCase());
      return undefined;
    },
  },
  {
    name: 'two-filters-with-one-matching-nothing-ignores-it',
    statement:
      'GET /api/public/v1/connectors: Query parameters capability, providerId, category (two filters together, one of them matching nothing)',
    answer(c, a) {
      // Remember what the catalog holds, from the unfiltered reads.
      home(c);
      if (!isGet(c, '/connectors') || a.status !== 200 || filtersOf(c).length > 0) return;
      const known = new Set<string>();
      for (const x of (a.json.data?.connectors ?? []) as Rec[]) {
        if (typeof x?.providerId === 'string') known.add(`providerId=${x.providerId}`);
        if (typeof x?.category === 'string') known.add(`category=${x.category}`);
        for (const cap of Array.isArray(x?.capabilities) ? x.capabilities : []) known.add(`capability=${cap}`);
      }
      if (known.size > 0) c.memory.set('r57-catalog', known);
    },
    request(c) {
      // Each filter is resolved to a set of connector ids first, and `if (ids.length) where(...)` drops a filter that found none.
      home(c);
      const known = c.memory.get('r57-catalog') as Set<string> | undefined;
      const used = filtersOf(c);
      if (!known || !isGet(c, '/connectors') || used.length < 2) return undefined;
      const empty = used.filter((f) => !known.has(`${f}=${c.search.get(f)}`));
      if (empty.length > 0 && empty.length < used.length) for (const f of empty) c.search.delete(f);
      return undefined;
    },
  },
];
