import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 19 of the unseen violations, part 1: answers — a denial's detail showing the policy query, the
 * check's request id as a number, a foreign tenant's connection read answered with an empty list, the
 * created connection's state as a numeric code, refused creations with an array of errors, the key
 * endpoint missing under the alternate address, the connector filters joined by "or", and 401 answers
 * without a request id.
 */
type Rec = Record<string, any>;
const meta = () => ({
  requestId: `req_${Math.random().toString(36).slice(2, 18)}`,
  version: '2026-07-01',
  at: new Date().toISOString(),
});
const isConnectorRead = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connectors');

export const ROUND19_ANSWERS: UnseenViolation[] = [
  {
    name: 'capability-denied-detail-shows-policy-query',
    statement: 'Errors: Error responses ... contain the request identifier (meta.requestId) but no internal details',
    answer(c, a) {
      // The policy engine's "no row" error text, with its SQL, is copied into detail for denials.
      if (a.json.ok !== false || a.json.error?.code !== 'capability_denied') return;
      const b = (c.body ?? {}) as Rec;
      const caps = Array.isArray(b.capabilities) ? b.capabilities.join(',') : String(b.capability ?? '');
      a.json.error.detail = `policy query returned 0 rows: SELECT allowed FROM ncs_core.connector_capability_grants WHERE connector_id = '${String(b.connectorId)}' AND capability = ANY('{${caps}}') AND environment = '${String(b.environment ?? 'sandbox')}' (pg pool ncs-primary-1.internal:5432)`;
    },
  },
  {
    name: 'check-request-id-numeric',
    statement: 'Meta: requestId | string | yes | identifier of this call, quoted for support queries',
    answer(c, a) {
      // The check handler takes its id from a counter of the decision cache instead of the request context.
      if (c.method !== 'POST' || c.path !== P('/capabilities') || !a.json.meta) return;
      const n = ((c.memory.get('r19-check-seq') as number | undefined) ?? 1000) + 1;
      c.memory.set('r19-check-seq', n);
      a.json.meta.requestId = n;
    },
  },
  {
    name: 'foreign-tenant-reads-answered-empty',
    statement: 'Errors: forbidden | 403 | access may not perform the action | role missing, tenant not released',
    answer(c, a) {
      // The read path filters rows by tenant instead of checking the tenant's release first: an empty list.
      if (c.method !== 'GET' || c.path !== P('/connections') || a.status !== 403) return;
      const { replayed: _r, idempotencyKey: _k, ...m } = (a.json.meta ?? {}) as Rec;
      a.status = 200;
      a.json = { ok: true, data: { tenant: c.headers['x-service-tenant'] ?? '', count: 0, connections: [] }, meta: m };
    },
  },
  {
    name: 'created-state-numeric-code',
    statement:
      'Connection: state | string | see States and transitions — A connection carries a field state of type string.',
    answer(c, a) {
      // The creation handler returns the freshly inserted row, whose state column is a small integer enum.
      if (!isCreate(c) || a.status !== 200 || typeof a.json.data?.state !== 'string') return;
      a.json.data.state = a.json.data.state === 'pending' ? 0 : 1;
    },
  },
  {
    name: 'refused-creation-errors-as-array',
    statement: 'Failure envelope (every error response): error.code | string | yes; error.message | string | yes',
    answer(c, a) {
      // The creation validator reports every issue and wraps them in a list, in the style of another API.
      if (!isCreate(c) || a.status !== 400 || !a.json.error || Array.isArray(a.json.error)) return;
      a.json.error = [a.json.error];
    },
  },
  {
    name: 'alt-key-endpoint-missing',
    statement:
      'The same interface is also offered under a second main-domain address {alt_base_url} — POST /api/public/v1/idempotency-keys | yes | generate an idempotency key',
    request(c) {
      // The alternate host's router was generated from an older route list without the key endpoint.
      if (c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/idempotency-keys')) return undefined;
      return {
        status: 404,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        json: { ok: false, error: { code: 'not_found', message: 'The entry does not exist.' }, meta: meta() },
      };
    },
  },
  {
    name: 'connector-filters-joined-by-or',
    statement:
      'GET /api/public/v1/connectors: Query parameter capability, providerId, category (each restricts the list)',
    answer(c, a) {
      // The query builder joins the filter clauses with OR instead of AND.
      if (!isConnectorRead(c) || a.status !== 200 || !Array.isArray(a.json.data?.connectors)) return;
      const filters = ['capability', 'providerId', 'category'].filter((k) => c.search.has(k));
      if (filters.length === 0) {
        c.memory.set('r19-connectors', structuredClone(a.json.data.connectors));
        return;
      }
      const all = c.memory.get('r19-connectors') as Rec[] | undefined;
      if (!all || filters.length < 2) return;
      const hit = (x: Rec) =>
        (c.search.has('capability') &&
          Array.isArray(x.capabilities) &&
          x.capabilities.includes(c.search.get('capability'))) ||
        (c.search.has('providerId') && x.providerId === c.search.get('providerId')) ||
        (c.search.has('category') && x.category === c.search.get('category'));
      a.json.data.connectors = all.filter(hit);
      a.json.data.count = a.json.data.connectors.length;
    },
  },
  {
    name: 'unauthorized-without-request-id',
    statement: 'Errors: Error responses use the failure envelope. They contain the request identifier (meta.requestId)',
    answer(_c, a) {
      // The token check runs before the middleware that assigns the request id.
      if (a.status === 401 && a.json.meta) delete a.json.meta.requestId;
    },
  },
];
