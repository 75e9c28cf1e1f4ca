import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 38 of the unseen violations, part 1: answers — a second tenant's keys expiring before they are
 * issued, 401 refusals reporting the earlier version, alternate listed capability flags as text, a second
 * tenant's capability count with a retired entry, production decisions with a numeric critical flag,
 * alternate checks without their environment, 403 refusals without a request id, and alternate writes
 * whose limit header lies below the calls left.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');

export const ROUND38_ANSWERS: UnseenViolation[] = [
  {
    name: 'second-tenant-issued-key-expires-before-meta-at',
    statement:
      'POST /api/public/v1/idempotency-keys: generate an idempotency key … data: … expiresAt (date-time) (a second tenant’s key does not expire before it is issued)',
    answer(c, a) {
      // The second tenant's key service runs in a region whose clock config subtracts the zone offset twice.
      const second = isSecond(c);
      const data = a.json.data as Rec | undefined;
      const at = Date.parse(String(a.json.meta?.at));
      if (!second || c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200 || !data) return;
      if (Number.isFinite(at)) data.expiresAt = new Date(at - 3_600_000).toISOString();
    },
  },
  {
    name: 'unauthorized-failure-meta-version-earlier',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (401 failures too)',
    answer(c, a) {
      // The token middleware builds its own failure meta from a constant nobody bumped at the release.
      home(c);
      if (a.status === 401 && a.json.meta && typeof a.json.meta === 'object') a.json.meta.version = '2026-06-12';
    },
  },
  {
    name: 'alt-listed-capability-critical-as-string',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean) (listed under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region reads connections from a CSV-backed replica that keeps every flag as text.
      home(c);
      const list = a.json.data?.connections;
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/connections') || !Array.isArray(list)) return;
      for (const conn of list as Rec[])
        for (const e of Array.isArray(conn?.capabilities) ? (conn.capabilities as Rec[]) : [])
          if (e && typeof e.critical === 'boolean') e.critical = String(e.critical);
    },
  },
  {
    name: 'second-tenant-capability-count-includes-retired',
    statement:
      'GET /api/public/v1/capabilities: data: count (integer), capabilities (array of Capability) (a second tenant’s count counts the listed ones)',
    answer(c, a) {
      // The second tenant's count query reads the raw table, which still holds one retired capability.
      const second = isSecond(c);
      const data = a.json.data as Rec | undefined;
      if (second && c.method === 'GET' && c.path === P('/capabilities') && typeof data?.count === 'number')
        data.count += 1;
    },
  },
  {
    name: 'production-check-decision-critical-as-number',
    statement: 'CapabilityDecision (all fields required): critical | boolean (a production check too)',
    answer(c, a) {
      // The production policy store is MySQL; its TINYINT(1) flag reaches the answer as 0 or 1.
      home(c);
      const decision = a.json.data?.decision as Rec | undefined;
      if (isCheck(c) && a.json.data?.environment === 'production' && typeof decision?.critical === 'boolean')
        decision.critical = decision.critical ? 1 : 0;
    },
  },
  {
    name: 'alt-check-answer-environment-null',
    statement:
      'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment) (under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's check handler forgets to copy the resolved environment into the answer.
      home(c);
      if (c.base === 'alt' && isCheck(c) && a.status === 200 && a.json.data) a.json.data.environment = null;
    },
  },
  {
    name: 'forbidden-refusal-request-id-null',
    statement:
      'Errors: Error responses … contain the request identifier (meta.requestId); Meta: requestId | string | yes (403 refusals too)',
    answer(c, a) {
      // The tenant-release guard answers before the request-id middleware has run and serialises its null.
      home(c);
      if (a.status === 403 && a.json.meta && typeof a.json.meta === 'object') a.json.meta.requestId = null;
    },
  },
  {
    name: 'alt-writes-limit-header-below-remaining',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (alternate writes: calls left never exceed the limit)',
    answer(c, a) {
      // The alternate gateway writes its own per-route write limit but passes the service's global remaining on.
      home(c);
      const remaining = Number(a.headers['x-ratelimit-remaining']);
      if (c.base === 'alt' && c.method === 'POST' && Number.isFinite(remaining) && remaining > 100)
        a.headers['x-ratelimit-limit'] = '100';
    },
  },
];
