import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 18 of the unseen violations, part 1: answers wrong under one condition — a category-filtered
 * provider list reporting an unpadded version, a replay reporting its version as a timestamp, not-found
 * refusals without a message, development connections missing from the list, a replay whose capability
 * flags were reset, a key conflict whose request id is the key, an empty connection list without its
 * tenant, answers for the second tenant reporting the earlier version, and decisions under the alternate
 * address without a false critical flag.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);

export const ROUND18_ANSWERS: UnseenViolation[] = [
  {
    name: 'filtered-providers-version-unpadded',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date). Responses report it in meta.version (GET /api/public/v1/providers?category=…)',
    answer(c, a) {
      // The filtered path goes through a search helper that formats the version with getMonth()/getDate().
      if (!isGet(c, '/providers') || !c.search.has('category') || typeof a.json.meta?.version !== 'string') return;
      a.json.meta.version = a.json.meta.version.replace(/-0(\d)/g, '-$1');
    },
  },
  {
    name: 'replay-meta-version-as-timestamp',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date). Responses report it in meta.version (a replayed POST /api/public/v1/connections)',
    answer(c, a) {
      // The replay cache stores the version as a Date column and serialises it back as an ISO timestamp.
      if (!isCreate(c) || a.json.meta?.replayed !== true || typeof a.json.meta.version !== 'string') return;
      a.json.meta.version = `${a.json.meta.version}T00:00:00.000Z`;
    },
  },
  {
    name: 'not-found-without-message',
    statement: 'Failure envelope: error.message | string | yes (not_found | 404)',
    answer(_c, a) {
      // The not-found mapper only copies detail and hint from the domain error, which has no message.
      if (a.status === 404 && a.json.ok === false && a.json.error) delete a.json.error.message;
    },
  },
  {
    name: 'development-connections-unlisted',
    statement: 'GET /api/public/v1/connections: connections of the tenant — data: tenant, count, connections',
    answer(c, a) {
      // The list query filters on a "deployable" flag that development connections never get.
      if (!isGet(c, '/connections') || !ok(a) || !Array.isArray(a.json.data?.connections)) return;
      const kept = (a.json.data.connections as Rec[]).filter((x) => x.environment !== 'development');
      a.json.data.connections = kept;
      a.json.data.count = kept.length;
    },
  },
  {
    name: 'replay-capability-flags-reset',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (Connection.capabilities: critical, idempotencyRequired)',
    answer(c, a) {
      // The replay rebuilds capability entries from the stored names, with the flags' column defaults.
      const d = a.json.data as Rec | undefined;
      if (!isCreate(c) || !ok(a) || a.json.meta?.replayed !== true || !Array.isArray(d?.capabilities)) return;
      for (const x of d.capabilities as Rec[]) {
        if (typeof x.critical === 'boolean') x.critical = false;
        if (typeof x.idempotencyRequired === 'boolean') x.idempotencyRequired = false;
      }
    },
  },
  {
    name: 'conflict-request-id-is-key',
    statement:
      'Meta: requestId | string | identifier of this call (Errors: They contain the request identifier (meta.requestId)) — idempotency_conflict',
    answer(c, a) {
      // The conflict path logs under the idempotency key and answers with that as the call's identifier.
      const key = c.headers['idempotency-key'];
      if (a.status === 409 && a.json.error?.code === 'idempotency_conflict' && key && a.json.meta)
        a.json.meta.requestId = key;
    },
  },
  {
    name: 'empty-connections-list-lacks-tenant',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection)',
    answer(c, a) {
      // The tenant is read from the first row, so a tenant without connections gets no tenant field.
      if (isGet(c, '/connections') && ok(a) && a.json.data?.count === 0) delete a.json.data.tenant;
    },
  },
  {
    name: 'second-tenant-reads-report-earlier-version',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (calls for a second tenant of the same access)',
    answer(c, a) {
      // The second tenant's settings row still pins the earlier version, and reads take meta from it.
      const me = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (c.method !== 'GET' || !me || !tenant || tenant === me || !ok(a) || !a.json.meta) return;
      a.json.meta.version = '2026-06-12';
    },
  },
  {
    name: 'alt-decision-omits-false-critical',
    statement:
      'CapabilityDecision (all fields required): critical | boolean (POST /api/public/v1/capabilities under {alt_base_url}: the same interface)',
    answer(c, a) {
      // The alternate address's serializer drops false booleans to save bytes ("omitempty").
      const d = a.json.data?.decision as Rec | undefined;
      if (c.base === 'alt' && c.method === 'POST' && c.path === P('/capabilities') && ok(a) && d?.critical === false)
        delete d.critical;
    },
  },
];
