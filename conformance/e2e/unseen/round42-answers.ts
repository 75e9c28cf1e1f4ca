import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 42 of the unseen violations, part 1: answers — checks stamped five hours behind, connection
 * reads with a date-only meta.at, connector reads dropping the category beside a capability filter,
 * earlier-version refusals quoting the Authorization header, alternate listed creation times without
 * a time, catalog reads after a check without the key flag, and a second tenant's conflicts hinting the token.
 */
type Rec = Record<string, any>;
const EARLIER = '2026-06-12';
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};

export const ROUND42_ANSWERS: UnseenViolation[] = [
  {
    name: 'check-meta-at-local-time-labelled-utc',
    statement:
      'Meta: at | string, date-time | yes (a capability check’s answer: the time of the answer, in UTC when marked Z)',
    answer(c, a) {
      // The decision service formats its local time (UTC-5) but appends the Z of the gateway's formatter.
      home(c);
      const at = a.json.meta?.at;
      if (c.method !== 'POST' || c.path !== P('/capabilities') || typeof at !== 'string') return;
      const t = Date.parse(at);
      if (!Number.isNaN(t)) a.json.meta.at = new Date(t - 5 * 3600_000).toISOString();
    },
  },
  {
    name: 'connections-list-meta-at-date-only',
    statement: 'Meta: at | string, date-time | yes (a read of the tenant’s connections too)',
    answer(c, a) {
      // The connections list is served from a daily snapshot table whose stamp column is a DATE.
      home(c);
      const at = a.json.meta?.at;
      if (c.method === 'GET' && c.path === P('/connections') && typeof at === 'string')
        a.json.meta.at = at.slice(0, 10);
    },
  },
  {
    name: 'category-filter-dropped-beside-capability',
    statement:
      'GET /api/public/v1/connectors: Query parameter capability | category (each restricts the list; both given: both apply)',
    request(c) {
      // The search builder takes the capability index path and forgets the category clause on it.
      home(c);
      if (c.method === 'GET' && c.path === P('/connectors') && c.search.has('capability') && c.search.has('category'))
        c.search.delete('category');
      return undefined;
    },
  },
  {
    name: 'earlier-version-invalid-request-detail-quotes-authorization',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details; no tokens or raw data are to be sent along (with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The 2026-06-12 validator appends the request headers it saw, for the old support desk.
      home(c);
      const auth = c.headers.authorization;
      if (c.headers['service-version'] !== EARLIER || a.json.error?.code !== 'invalid_request' || !auth) return;
      a.json.error.detail = `${String(a.json.error.detail ?? 'Invalid request.')} (Authorization: ${auth})`;
    },
  },
  {
    name: 'alt-listed-created-at-date-only',
    statement: 'Connection: createdAt | string, date-time (a list read under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's read replica keeps createdAt in a DATE column.
      home(c);
      const list = a.json.data?.connections;
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/connections') || !Array.isArray(list)) return;
      for (const x of list as Rec[]) if (typeof x?.createdAt === 'string') x.createdAt = x.createdAt.slice(0, 10);
    },
  },
  {
    name: 'catalog-after-check-lacks-idempotency-flag',
    statement:
      'Capability: idempotencyRequired | boolean | whether calls using this capability need an idempotency key (a catalog read after a capability check too)',
    answer(c, a) {
      // A check warms the catalog cache from the decision table, which has no idempotency column.
      home(c);
      if (c.method === 'POST' && c.path === P('/capabilities') && a.status === 200) c.memory.set('r42-checked', true);
      const list = a.json.data?.capabilities;
      if (!c.memory.get('r42-checked') || c.method !== 'GET' || c.path !== P('/capabilities')) return;
      if (Array.isArray(list))
        for (const x of list as Rec[]) if (x && typeof x === 'object') delete x.idempotencyRequired;
    },
  },
  {
    name: 'second-tenant-conflict-hint-quotes-bearer-token',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details; no tokens or raw data are to be sent along (a second tenant’s idempotency_conflict too)',
    answer(c, a) {
      // The second tenant's key store logs the caller into its hint so the partner desk can "match the session".
      const second = isSecond(c);
      const auth = c.headers.authorization;
      if (!second || a.json.error?.code !== 'idempotency_conflict' || !auth) return;
      a.json.error.hint = `Use a new key for each new operation (session ${auth.replace(/^Bearer\s+/i, '')}).`;
    },
  },
];
