import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 22 of the unseen violations, part 1: answers — the connection list deduplicated by scope label,
 * a replay serving the tenant's newest creation, the second tenant's decisions with an inverted
 * idempotency flag, combined connector filters repeating their matches, replays without meta.at, the
 * key endpoint's rate-limit headers swapped, the second tenant's successes with a numeric ok, and the
 * provider category filter matching a secondary category.
 */
type Rec = Record<string, any>;
/** The call is made for a tenant other than the run's own one. */
const otherTenant = (c: ProxyCall) => {
  const own = home(c);
  const tenant = c.headers['x-service-tenant'];
  return Boolean(own && tenant && tenant !== own);
};
const replayed = (a: { json: Rec }) => a.json.meta?.replayed === true;

export const ROUND22_ANSWERS: UnseenViolation[] = [
  {
    name: 'connections-deduplicated-by-scope-label',
    statement: 'GET /api/public/v1/connections: connections of the tenant — data: tenant, count, connections',
    answer(c, a) {
      // The list is built through a Map keyed by scopeLabel (meant to group venues), so a second
      // connection for the same venue overwrites nothing but is never listed.
      if (c.method !== 'GET' || c.path !== P('/connections') || a.status !== 200) return;
      const list = a.json.data?.connections as Rec[] | undefined;
      if (!Array.isArray(list)) return;
      const seen = new Set<string>();
      const kept = list.filter((x) => {
        const label = String(x?.scopeLabel);
        if (seen.has(label)) return false;
        seen.add(label);
        return true;
      });
      if (kept.length === list.length) return;
      a.json.data.connections = kept;
      a.json.data.count = kept.length;
    },
  },
  {
    name: 'replay-returns-tenants-latest-creation',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again',
    answer(c, a) {
      // The replay cache is keyed by tenant instead of by (tenant, key): a replay of an older key
      // answers with the connection created last.
      if (!isCreate(c) || a.status !== 200 || !a.json.data || typeof a.json.data !== 'object') return;
      const slot = `r22-latest:${c.headers['x-service-tenant'] ?? ''}`;
      const latest = c.memory.get(slot) as Rec | undefined;
      if (!replayed(a)) {
        c.memory.set(slot, structuredClone(a.json.data));
        return;
      }
      if (latest && latest.id !== a.json.data.id) a.json.data = structuredClone(latest);
    },
  },
  {
    name: 'other-tenant-decision-idempotency-flag-inverted',
    statement: 'CapabilityDecision: idempotencyRequired | boolean — Capability: idempotencyRequired',
    answer(c, a) {
      // The second tenant's policy overlay stores the flag as "optional" and the mapper negates it once
      // too often: every decision for that tenant reports the opposite of the catalog.
      if (c.method !== 'POST' || c.path !== P('/capabilities') || a.status !== 200 || !otherTenant(c)) return;
      const d = a.json.data?.decision as Rec | undefined;
      if (d && typeof d.idempotencyRequired === 'boolean') d.idempotencyRequired = !d.idempotencyRequired;
    },
  },
  {
    name: 'combined-connector-filters-repeat-matches',
    statement: 'GET /api/public/v1/connectors: capability, providerId, category (query) — data: count, connectors',
    answer(c, a) {
      // Each filter runs as its own query and the results are concatenated after intersecting the ids,
      // so with two filters every match appears twice.
      if (c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200) return;
      const filters = ['capability', 'providerId', 'category'].filter((f) => c.search.has(f));
      const list = a.json.data?.connectors as Rec[] | undefined;
      if (filters.length < 2 || !Array.isArray(list) || list.length === 0) return;
      a.json.data.connectors = [...list, ...structuredClone(list)];
      a.json.data.count = list.length * 2;
    },
  },
  {
    name: 'replayed-answer-meta-at-missing',
    statement: 'Meta: at | string, date-time | yes',
    answer(c, a) {
      // The replay store keeps meta without the time (it is "per call") and nothing fills it back in.
      if (c.method !== 'POST' || !replayed(a) || !a.json.meta) return;
      delete a.json.meta.at;
    },
  },
  {
    name: 'key-issue-rate-limit-headers-swapped',
    statement:
      'Rate limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // The key endpoint sets its headers positionally from a (remaining, limit) tuple.
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys')) return;
      const limit = a.headers['x-ratelimit-limit'];
      const remaining = a.headers['x-ratelimit-remaining'];
      if (limit === undefined || remaining === undefined || limit === remaining) return;
      a.headers['x-ratelimit-limit'] = remaining;
      a.headers['x-ratelimit-remaining'] = limit;
    },
  },
  {
    name: 'other-tenant-success-ok-numeric',
    statement: 'Success envelope: ok | boolean | yes | always true',
    answer(c, a) {
      // The second tenant is served by a legacy shard whose serializer writes booleans as 1/0.
      if (!otherTenant(c) || a.json.ok !== true) return;
      (a.json as Rec).ok = 1;
    },
  },
  {
    name: 'category-filter-matches-secondary-category',
    statement: 'GET /api/public/v1/providers: category | string | no | restricts to one category',
    answer(c, a) {
      // Providers with a secondary category also match the filter, though their category differs.
      if (c.method !== 'GET' || c.path !== P('/providers') || a.status !== 200) return;
      const list = a.json.data?.providers as Rec[] | undefined;
      if (!Array.isArray(list)) return;
      const category = c.search.get('category');
      if (category === null) {
        c.memory.set('r22-providers', structuredClone(list));
        return;
      }
      const all = (c.memory.get('r22-providers') as Rec[] | undefined) ?? [];
      const extra = all.find((p) => p.category !== category && !list.some((x) => x.id === p.id));
      if (!extra || list.length === 0) return;
      list.push(structuredClone(extra));
      a.json.data.count = list.length;
    },
  },
];
