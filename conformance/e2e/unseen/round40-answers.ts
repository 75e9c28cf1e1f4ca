import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 40 of the unseen violations, part 1: answers — the sample first call's answer without a request
 * id, unknown paths refused with a code of their own, malformed Service-Version values refused with an
 * unlisted code, replays reporting a limit of zero, a second tenant's connection count as text, alternate
 * provider lists without categories, alternate creations timed in epoch milliseconds, and pilot decisions
 * whose idempotency flag is text, and OPTIONS refusals without meta.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};

export const ROUND40_ANSWERS: UnseenViolation[] = [
  {
    name: 'info-meta-lacks-request-id',
    statement:
      'Success envelope (every JSON success response): meta | Meta | yes; Meta: requestId | string | yes (the sample first call GET /info too)',
    answer(c, a) {
      // /info is served by the account service behind the gateway, whose envelope writer predates request ids.
      home(c);
      if (c.method === 'GET' && c.path === P('/info') && a.status === 200 && a.json.meta) delete a.json.meta.requestId;
    },
  },
  {
    name: 'unknown-path-code-route-not-found',
    statement:
      'Failure envelope: error.code | one of the codes in the Errors part; Errors: not_found | 404 (a path the interface does not have)',
    answer(c, a) {
      // The router's fallback handler was written with its own code before the error table was agreed.
      home(c);
      if (a.status === 404 && a.json.error && /^No route/.test(String(a.json.error.detail)))
        a.json.error.code = 'route_not_found';
    },
  },
  {
    name: 'malformed-service-version-code-unsupported-version',
    statement:
      'Failure envelope: error.code | one of the codes in the Errors part (a refused Service-Version header value too)',
    answer(c, a) {
      // The version middleware refuses with the code from the gateway vendor's template, not the interface's.
      home(c);
      if (a.status === 400 && a.json.error && /Service-Version/i.test(String(a.json.error.detail)))
        a.json.error.code = 'unsupported_version';
    },
  },
  {
    name: 'replay-rate-limit-limit-header-zero',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (a replayed creation too)',
    answer(c, a) {
      // Replays are served from the idempotency store before the limiter runs; its header defaults to 0.
      home(c);
      if (isCreate(c) && a.json.meta?.replayed === true && 'x-ratelimit-limit' in a.headers)
        a.headers['x-ratelimit-limit'] = '0';
    },
  },
  {
    name: 'second-tenant-connections-count-as-string',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (a second tenant’s listing too)',
    answer(c, a) {
      // The second tenant lives on the newer database whose driver returns COUNT(*) as a bigint string.
      const second = isSecond(c);
      const data = a.json.data as Rec | undefined;
      if (second && c.method === 'GET' && c.path === P('/connections') && typeof data?.count === 'number')
        data.count = String(data.count);
    },
  },
  {
    name: 'alt-provider-category-missing',
    statement: 'Provider: id | name | category | string | summary (listed under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's provider projection was built before category was added to the table.
      home(c);
      const list = a.json.data?.providers;
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/providers') || !Array.isArray(list)) return;
      for (const p of list as Rec[]) if (p && typeof p === 'object') delete p.category;
    },
  },
  {
    name: 'alt-created-at-epoch-milliseconds',
    statement: 'Connection: createdAt | string, date-time (a connection created through {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's serializer writes Date objects as epoch milliseconds (a JSON replacer default).
      home(c);
      const data = a.json.data as Rec | undefined;
      if (c.base === 'alt' && isCreate(c) && a.status === 200 && typeof data?.createdAt === 'string')
        data.createdAt = Date.parse(data.createdAt);
    },
  },
  {
    name: 'pilot-decision-idempotency-required-as-string',
    statement: 'CapabilityDecision (all fields required): idempotencyRequired | boolean (a pilot check too)',
    answer(c, a) {
      // Pilot decisions come from a feature-flag service whose attributes are all strings.
      home(c);
      const decision = a.json.data?.decision as Rec | undefined;
      if (c.method !== 'POST' || c.path !== P('/capabilities') || a.json.data?.environment !== 'pilot') return;
      if (typeof decision?.idempotencyRequired === 'boolean')
        decision.idempotencyRequired = String(decision.idempotencyRequired);
    },
  },
  {
    name: 'options-refusal-lacks-meta',
    statement:
      'Failure envelope (every error response): meta | Meta | yes (an OPTIONS call the deployment refuses too)',
    answer(c, a) {
      // OPTIONS is answered by the CORS layer, which writes the error object but not the envelope's meta.
      home(c);
      if (c.method === 'OPTIONS' && a.status >= 400 && a.json.ok === false) delete a.json.meta;
    },
  },
];
