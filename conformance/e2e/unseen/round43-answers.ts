import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 43 of the unseen violations, part 1: answers — a second tenant's checks at the alternate address
 * without critical, its list reads naming the first tenant, its meta.version the earlier one and its
 * refusals without a request id; late replays restamped, earlier connector counts of zero, a Remaining
 * that climbs back within the window, and a halved Limit at the alternate address.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const EARLIER = '2026-06-12';
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const altSecond = (c: ProxyCall) => isSecond(c) && c.base === 'alt';

export const ROUND43_ANSWERS: UnseenViolation[] = [
  {
    name: 'alt-second-tenant-decision-lacks-critical',
    statement:
      'CapabilityDecision (all fields required): critical | boolean (a second tenant’s check under {alt_base_url})',
    answer(c, a) {
      // The alternate region's decision cache for partner tenants was filled before critical was added.
      const hit = altSecond(c);
      const decision = a.json.data?.decision as Rec | undefined;
      if (hit && c.method === 'POST' && c.path === P('/capabilities') && decision) delete decision.critical;
    },
  },
  {
    name: 'alt-second-tenant-connections-name-home-tenant',
    statement:
      'GET /api/public/v1/connections: data: tenant (string) — connections of the tenant (a second tenant’s read under {alt_base_url})',
    answer(c, a) {
      // The alternate region resolves the tenant label from the token's first tenant, not from the header.
      const hit = altSecond(c);
      const first = home(c);
      if (hit && first && c.method === 'GET' && c.path === P('/connections') && a.json.data) a.json.data.tenant = first;
    },
  },
  {
    name: 'alt-second-tenant-meta-version-earlier',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (a second tenant under {alt_base_url})',
    answer(c, a) {
      // Partner tenants at the alternate region are still pinned to the previous release's config file.
      const hit = altSecond(c);
      const asked = c.headers['service-version'];
      if (hit && (!asked || asked === CURRENT) && a.json.meta?.version === CURRENT) a.json.meta.version = EARLIER;
    },
  },
  {
    name: 'alt-second-tenant-refusals-lack-request-id',
    statement:
      'Failure envelope: meta | Meta | yes; Meta: requestId | yes (a second tenant’s refusals under {alt_base_url})',
    answer(c, a) {
      // The alternate region's tenant router answers refusals itself, before the request-id middleware.
      const hit = altSecond(c);
      if (hit && a.json.ok === false && a.json.meta) delete a.json.meta.requestId;
    },
  },
  {
    name: 'late-replay-created-at-restamped',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (a replay seconds later too)',
    answer(c, a) {
      // The idempotency store keeps the row but re-renders createdAt from the clock once its cache entry expired.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || a.status !== 200 || !a.json.data) return;
      const firstAt = c.memory.get(`r43-first-${key}`) as number | undefined;
      if (firstAt === undefined) c.memory.set(`r43-first-${key}`, Date.now());
      else if (a.json.meta?.replayed === true && Date.now() - firstAt > 1500)
        a.json.data.createdAt = new Date().toISOString();
    },
  },
  {
    name: 'earlier-version-connectors-count-zero',
    statement: 'GET /api/public/v1/connectors: data: count (integer), connectors (with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The 2026-06-12 serializer reads count from a field the new search service no longer fills.
      home(c);
      const data = a.json.data as Rec | undefined;
      if (c.headers['service-version'] !== EARLIER || c.method !== 'GET' || c.path !== P('/connectors')) return;
      if (Array.isArray(data?.connectors) && data.connectors.length > 0) data.count = 0;
    },
  },
  {
    name: 'remaining-climbs-every-fourth-read',
    statement: 'Limits: X-RateLimit-Remaining (calls left in the window) — calls left never grow within one window',
    answer(c, a) {
      // Reads are spread over four limiter shards; the fourth one lags and reports an older, higher count.
      home(c);
      if (c.method !== 'GET') return;
      const n = ((c.memory.get('r43-reads') as number | undefined) ?? 0) + 1;
      c.memory.set('r43-reads', n);
      const rem = Number(a.headers['x-ratelimit-remaining']);
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (n % 4 === 0 && Number.isInteger(rem) && Number.isInteger(limit))
        a.headers['x-ratelimit-remaining'] = String(Math.min(limit, rem + 3));
    },
  },
  {
    name: 'alt-rate-limit-limit-halved',
    statement:
      'Limits: Rate limits are configured per access, per tenant and per environment; X-RateLimit-Limit (one access, both addresses)',
    answer(c, a) {
      // The alternate region runs two gateway nodes and divides each access's limit between them.
      home(c);
      const limit = Number(a.headers['x-ratelimit-limit']);
      const rem = Number(a.headers['x-ratelimit-remaining']);
      if (c.base !== 'alt' || !Number.isInteger(limit) || limit < 2) return;
      const half = Math.floor(limit / 2);
      a.headers['x-ratelimit-limit'] = String(half);
      if (Number.isInteger(rem)) a.headers['x-ratelimit-remaining'] = String(Math.min(rem, half));
    },
  },
];
