import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 38 of the unseen violations, part 2: inputs — alternate creations with case-folded connector
 * ids, a second tenant's checks with case-folded connector ids, a second tenant's case-insensitive
 * category filter, alternate provider filters matched by prefix, alternate over-long keys clamped, a
 * second tenant's over-long capability lists cut, earlier-version checks with case-folded environments,
 * and alternate over-long checked capabilities cut.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
/** Replaces one string field of the body when `fix` changes it. */
const rewrite = (c: ProxyCall, field: string, fix: (v: string) => string) => {
  const b = body(c);
  const v = b?.[field];
  if (b && typeof v === 'string' && fix(v) !== v) c.body = { ...b, [field]: fix(v) };
};

export const ROUND38_INPUTS: UnseenViolation[] = [
  {
    name: 'alt-creation-connector-id-case-folded',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier (under {alt_base_url}, a creation for "Tillcraft-POS-Cloud" names no connector)',
    request(c) {
      // The alternate region's connector lookup runs on a database with a case-insensitive collation.
      home(c);
      if (c.base === 'alt' && isCreate(c)) rewrite(c, 'connectorId', (v) => v.toLowerCase());
      return undefined;
    },
  },
  {
    name: 'second-tenant-check-connector-id-case-folded',
    statement:
      'A capability check returns a decision; Errors: not_found | wrong identifier (a second tenant’s check for an upper-cased connector id)',
    request(c) {
      // The second tenant's policy service normalises identifiers to lower case before the lookup.
      const second = isSecond(c);
      if (second && isCheck(c)) rewrite(c, 'connectorId', (v) => v.toLowerCase());
      return undefined;
    },
  },
  {
    name: 'second-tenant-providers-category-case-insensitive',
    statement:
      'GET /api/public/v1/providers: category | string | no | restricts to one category (a second tenant’s "POS" is not the category "pos")',
    request(c) {
      // The second tenant's catalog mirror is a search index whose keyword field is lower-cased on query.
      const second = isSecond(c);
      const category = c.search.get('category');
      if (second && c.method === 'GET' && c.path === P('/providers') && category)
        c.search.set('category', category.toLowerCase());
      return undefined;
    },
  },
  {
    name: 'alt-connectors-provider-id-prefix-matched',
    statement:
      'GET /api/public/v1/connectors: providerId | string | no (under {alt_base_url} "till" selects no provider, not "tillcraft")',
    request(c) {
      // The alternate region's filter is a "starts with" search meant for the portal's type-ahead box.
      home(c);
      const known = (c.memory.get('r38-providers') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('r38-providers', known);
      const wanted = c.search.get('providerId');
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/connectors') || !wanted || known.has(wanted))
        return undefined;
      const hits = [...known].filter((id) => id.startsWith(wanted));
      if (hits.length === 1 && hits[0]) c.search.set('providerId', hits[0]);
      return undefined;
    },
    answer(c, a) {
      // Memory only: the provider ids every connector read has shown so far.
      const known = c.memory.get('r38-providers') as Set<string> | undefined;
      const list = a.json.data?.connectors;
      if (known && Array.isArray(list))
        for (const x of list as Rec[]) if (typeof x?.providerId === 'string') known.add(x.providerId);
    },
  },
  {
    name: 'alt-overlong-key-clamped-to-128',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (under {alt_base_url} a 129-character key is refused)',
    request(c) {
      // The alternate gateway stores keys in a CHAR(128) header cache and forwards the cut copy.
      home(c);
      const key = c.headers['idempotency-key'];
      if (c.base === 'alt' && key && key.length > 128) c.headers['idempotency-key'] = key.slice(0, 128);
      return undefined;
    },
  },
  {
    name: 'second-tenant-capabilities-over-24-cut',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items (a second tenant’s 25 items are refused)',
    request(c) {
      // The second tenant's plan object caps the list at 24 entries silently instead of refusing it.
      const second = isSecond(c);
      const b = body(c);
      if (second && isCreate(c) && b && Array.isArray(b.capabilities) && b.capabilities.length > 24)
        c.body = { ...b, capabilities: b.capabilities.slice(0, 24) };
      return undefined;
    },
  },
  {
    name: 'earlier-version-check-environment-case-folded',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment (with Service-Version 2026-06-12 "Production" is refused too)',
    request(c) {
      // The 2026-06-12 adapter lower-cases enumeration values to accept a legacy client's spelling.
      home(c);
      if (isCheck(c) && c.headers['service-version'] === '2026-06-12')
        rewrite(c, 'environment', (v) => v.toLowerCase());
      return undefined;
    },
  },
  {
    name: 'alt-check-capability-over-120-cut',
    statement:
      'Limits: connectorId, capability (checks and connection creation) | length 2 to 120 (under {alt_base_url} a 121-character capability is refused)',
    request(c) {
      // The alternate region copies the capability into a fixed-width field before validation.
      home(c);
      if (c.base === 'alt' && isCheck(c)) rewrite(c, 'capability', (v) => v.slice(0, 120));
      return undefined;
    },
  },
];
