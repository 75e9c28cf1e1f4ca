import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 20 of the unseen violations, part 1: answers — pilot creations listing each capability twice,
 * listed connection ids replaced by an internal serial, the created connector id carrying a version
 * suffix, the alternate address's catalog with critical inverted, the last provider's name null, the
 * catalog count doubled when Service-Version is sent, the issued key's expiry as a date only, and
 * listed production connections without their capabilities.
 */
type Rec = Record<string, any>;
const isRead = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const ok = (a: { status: number; json: Rec }) => a.status === 200 && a.json.ok === true;

export const ROUND20_ANSWERS: UnseenViolation[] = [
  {
    name: 'pilot-creation-capabilities-listed-twice',
    statement:
      'A connection binds a connector to an environment and a set of capabilities — Connection: capabilities | array of object',
    answer(c, a) {
      // The pilot path joins the capability table twice (grant and booking), so every entry appears twice.
      const d = a.json.data as Rec | undefined;
      if (!isCreate(c) || !ok(a) || d?.environment !== 'pilot' || !Array.isArray(d.capabilities)) return;
      d.capabilities = [...d.capabilities, ...structuredClone(d.capabilities)];
    },
  },
  {
    name: 'listed-connection-id-internal-serial',
    statement: 'GET /api/public/v1/connections: connections of the tenant — Connection: id | string',
    answer(c, a) {
      // The list view selects the table's serial key instead of the public id the creation answered.
      const list = a.json.data?.connections as Rec[] | undefined;
      if (!isRead(c, '/connections') || !ok(a) || !Array.isArray(list)) return;
      list.forEach((x, i) => {
        x.id = String(1000 + i);
      });
    },
  },
  {
    name: 'created-connector-id-version-suffixed',
    statement: 'Connection: connectorId | string — A connection binds a connector to an environment',
    answer(c, a) {
      // The creation answer reports the resolved connector revision instead of the connector's id.
      const d = a.json.data as Rec | undefined;
      if (!isCreate(c) || !ok(a) || typeof d?.connectorId !== 'string') return;
      d.connectorId = `${d.connectorId}@3`;
    },
  },
  {
    name: 'alt-catalog-critical-inverted',
    statement:
      'The same interface is also offered under a second main-domain address {alt_base_url} — Capability: critical | boolean',
    answer(c, a) {
      // The alternate host reads a catalog replica whose critical column was migrated as "optional".
      const list = a.json.data?.capabilities as Rec[] | undefined;
      if (c.base !== 'alt' || !isRead(c, '/capabilities') || !ok(a) || !Array.isArray(list)) return;
      for (const x of list) if (typeof x.critical === 'boolean') x.critical = !x.critical;
    },
  },
  {
    name: 'last-provider-name-null',
    statement: 'Provider: name | string — GET /api/public/v1/providers: data: providers (array of Provider)',
    answer(c, a) {
      // The newest provider was inserted without a display name, and the serializer passes the null on.
      const list = a.json.data?.providers as Rec[] | undefined;
      if (!isRead(c, '/providers') || !ok(a) || !Array.isArray(list) || list.length === 0) return;
      const last = list[list.length - 1] as Rec;
      last.name = null;
    },
  },
  {
    name: 'versioned-catalog-count-doubled',
    statement: 'GET /api/public/v1/capabilities: data: count (integer), capabilities (array of Capability)',
    answer(c, a) {
      // With Service-Version set, the count sums both versions' catalogs while the list shows only one.
      const d = a.json.data as Rec | undefined;
      if (!isRead(c, '/capabilities') || !ok(a) || !c.headers['service-version'] || typeof d?.count !== 'number')
        return;
      d.count *= 2;
    },
  },
  {
    name: 'issued-key-expires-at-date-only',
    statement: 'POST /api/public/v1/idempotency-keys: data: ... expiresAt (date-time)',
    answer(c, a) {
      // The expiry is computed as a calendar day and serialized with the date formatter.
      const d = a.json.data as Rec | undefined;
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || !ok(a) || typeof d?.expiresAt !== 'string')
        return;
      d.expiresAt = d.expiresAt.slice(0, 10);
    },
  },
  {
    name: 'listed-production-capabilities-empty',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    answer(c, a) {
      // Production rows live in another schema; the list's capability join only looks at the default one.
      const list = a.json.data?.connections as Rec[] | undefined;
      if (!isRead(c, '/connections') || !ok(a) || !Array.isArray(list)) return;
      for (const x of list) if (x.environment === 'production') x.capabilities = [];
    },
  },
];
