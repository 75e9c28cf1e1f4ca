import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 37 of the unseen violations, part 1: answers — combined connector filters counted by the first
 * filter only, replayed connection ids upper-cased, pilot creations answered without capabilities, earlier
 * issued keys without an operation, the alternate capability catalog without a version, earlier catalog
 * reads answered 203, a second tenant's numeric hints, and a second tenant's refused decisions without allowed.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const EARLIER = '2026-06-12';
const FILTERS = ['capability', 'providerId', 'category'] as const;
const matches = (x: Rec, f: (typeof FILTERS)[number], v: string) =>
  f === 'capability' ? Array.isArray(x.capabilities) && x.capabilities.includes(v) : x[f] === v;

export const ROUND37_ANSWERS: UnseenViolation[] = [
  {
    name: 'combined-filter-connector-count-from-first-filter',
    statement:
      'GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector) (with two filters, count counts the connectors listed)',
    answer(c, a) {
      // The count query is built before the second filter is appended to the list query (a paging-helper bug).
      home(c);
      if (c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200 || !a.json.data) return;
      const used = FILTERS.filter((f) => c.search.has(f));
      const items = a.json.data.connectors;
      if (used.length === 0 && Array.isArray(items)) c.memory.set('r37-catalog', items);
      const all = c.memory.get('r37-catalog') as Rec[] | undefined;
      const first = used[0];
      if (used.length < 2 || !all || !first) return;
      a.json.data.count = all.filter((x) => matches(x, first, String(c.search.get(first)))).length;
    },
  },
  {
    name: 'replay-connection-id-uppercased',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (the same connection id)',
    answer(c, a) {
      // Replays are served from a key-value cache whose codec upper-cases identifier fields.
      home(c);
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed === true && typeof a.json.data?.id === 'string')
        a.json.data.id = a.json.data.id.toUpperCase();
    },
  },
  {
    name: 'pilot-created-connection-capabilities-empty',
    statement:
      'Connection: capabilities | array of object | each entry: capability, critical, idempotencyRequired (a pilot connection answers the capabilities it binds)',
    answer(c, a) {
      // Pilot capabilities are provisioned asynchronously; the creation answer serialises the still-empty relation.
      home(c);
      if (isCreate(c) && a.status === 200 && a.json.data?.environment === 'pilot') a.json.data.capabilities = [];
    },
  },
  {
    name: 'earlier-version-issued-key-operation-null',
    statement:
      'Idempotency key result: operation | string (with Service-Version 2026-06-12 too); POST /api/public/v1/idempotency-keys: data: … operation (string)',
    answer(c, a) {
      // The 2026-06-12 serializer maps the renamed column "op_name", which the new table no longer has.
      home(c);
      const keys = c.method === 'POST' && c.path === P('/idempotency-keys');
      if (keys && a.status === 200 && c.headers['service-version'] === EARLIER && a.json.data)
        a.json.data.operation = null;
    },
  },
  {
    name: 'alt-capability-catalog-meta-lacks-version',
    statement: 'Meta: version | string | yes (the capability catalog under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region serves the catalog from a CDN edge function that builds its own meta.
      home(c);
      if (c.base === 'alt' && c.method === 'GET' && c.path === P('/capabilities') && a.json.meta)
        delete a.json.meta.version;
    },
  },
  {
    name: 'earlier-version-catalog-answered-203',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope (catalog reads with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // A transforming compatibility proxy for 2026-06-12 marks answers it rewrote as "non-authoritative".
      home(c);
      const catalog = [P('/providers'), P('/connectors'), P('/capabilities')].includes(c.path);
      if (catalog && c.method === 'GET' && a.status === 200 && c.headers['service-version'] === EARLIER) a.status = 203;
    },
  },
  {
    name: 'second-tenant-failure-hint-numeric',
    statement: 'Failure envelope: error.hint | string | no (a second tenant’s failures too)',
    answer(c, a) {
      // The second tenant's support desk replaced hint texts by the number of a help-centre article.
      const second = isSecond(c);
      if (second && a.status >= 400 && a.json.error && typeof a.json.error === 'object') a.json.error.hint = 4012;
    },
  },
  {
    name: 'second-tenant-decision-allowed-omitted-when-false',
    statement: 'CapabilityDecision (all fields required): allowed | boolean (a second tenant’s refused decision too)',
    answer(c, a) {
      // The second tenant's region serialises with "omit falsy fields" to save bandwidth.
      const second = isSecond(c);
      const decision = a.json.data?.decision as Rec | undefined;
      if (second && c.method === 'POST' && c.path === P('/capabilities') && decision?.allowed === false)
        delete decision.allowed;
    },
  },
];
