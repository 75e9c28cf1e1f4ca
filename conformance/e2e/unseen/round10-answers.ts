import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P, refuse } from './proxy-helpers.ts';
import { bodyOf, failure } from './round6-support.ts';

/**
 * Round 10 of the unseen violations, part 2: errors mapped to the wrong status or shape by one layer
 * (policy, gateway, body parser, a database column), and the rate-limit headers' arithmetic.
 */
const failed = (a: ProxyAnswer) => a.status >= 400 && a.json.ok === false && a.json.error;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const BODY_ROUTES = new Set([P('/capabilities'), P('/connections'), P('/idempotency-keys'), P('/webhooks')]);
/** The two rate-limit headers of an answer, as numbers, when both are present. */
const limits = (a: ProxyAnswer) => {
  const limit = Number(a.headers['x-ratelimit-limit']);
  const left = Number(a.headers['x-ratelimit-remaining']);
  return a.headers['x-ratelimit-limit'] !== undefined && Number.isFinite(limit) && Number.isFinite(left)
    ? { limit, left }
    : undefined;
};

export const ROUND10_ANSWERS: UnseenViolation[] = [
  {
    name: 'capability-denied-as-forbidden',
    statement:
      'Errors: capability_denied | 409 | capability is not released for this connection | capability not booked, connection paused',
    answer(_c, a) {
      // The policy engine's "deny" is mapped by the generic authorisation filter.
      if (failed(a) && a.json.error.code === 'capability_denied')
        refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
  {
    name: 'internal-as-503',
    statement:
      'Errors: internal | 500 | fault on the service side (Endpoints: may answer with the statuses 400, …, 429, 500)',
    answer(_c, a) {
      // The load balancer turns every upstream 500 into 503 with a retry hint; the body passes unchanged.
      if (a.status !== 500) return;
      a.status = 503;
      a.headers['retry-after'] = '30';
    },
  },
  {
    name: 'rate-limited-by-gateway-as-html',
    statement:
      'Errors: Error responses use the failure envelope (rate_limited | 429); Limits: When exceeded, the service answers 429 with a wait time',
    answer(_c, a) {
      // The edge proxy answers the 429 itself with its stock page; Retry-After is kept.
      if (a.status !== 429) return;
      a.headers['content-type'] = 'text/html; charset=utf-8';
      a.raw =
        '<html><head><title>429 Too Many Requests</title></head><body><h1>429 Too Many Requests</h1></body></html>';
    },
  },
  {
    name: 'unparsable-json-body-500',
    statement:
      'Errors: invalid_request | 400 | request incomplete or unsuitable | required field missing, wrong data type (a JSON body that does not parse, or none)',
    request(c) {
      // JSON.parse of the raw body runs outside the validation error handler.
      if (c.method !== 'POST' || !BODY_ROUTES.has(c.path) || c.body !== undefined) return undefined;
      if (!(c.headers['content-type'] ?? '').includes('json')) return undefined;
      return failure(c, 500, 'internal', 'Fault on the service side.');
    },
  },
  {
    name: 'unknown-connector-creation-500',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier (a connection naming a connector the catalog lacks)',
    answer(c, a) {
      // The creation path dereferences the catalog lookup before checking it (the capability check does check it).
      if (isCreate(c) && failed(a) && a.json.error.code === 'not_found')
        refuse(a, 500, 'internal', 'Fault on the service side.');
    },
  },
  {
    name: 'operation-over-64-fails-internally',
    statement: 'Limits: operation in idempotency key creation | length 2 to 80',
    request(c) {
      // The issued-keys table stores the operation in a VARCHAR(64); longer names fail on insert.
      const op = bodyOf(c)?.operation;
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || typeof op !== 'string') return undefined;
      const n = [...op].length;
      return n > 64 && n <= 80 ? failure(c, 500, 'internal', 'Fault on the service side.') : undefined;
    },
  },
  {
    name: 'remaining-reported-before-counting',
    statement:
      'Limits: Response headers: X-RateLimit-Remaining (calls left in the window) — after this call, not before it',
    answer(_c, a) {
      // The header is written from the counter read before the call is added to it.
      const l = limits(a);
      if (l) a.headers['x-ratelimit-remaining'] = String(Math.min(l.limit, l.left + 1));
    },
  },
  {
    name: 'creation-rate-limit-headers-doubled',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // The idempotency middleware and the limiter both append the headers on creations.
      const l = limits(a);
      if (!isCreate(c) || !l) return;
      a.headers['x-ratelimit-limit'] = `${l.limit}, ${l.limit}`;
      a.headers['x-ratelimit-remaining'] = `${l.left}, ${l.left}`;
    },
  },
  {
    name: 'writes-counted-twice',
    statement: 'Limits: X-RateLimit-Remaining (calls left in the window) — one call is one call, a modifying one too',
    answer(c, a) {
      // Modifying calls pass the limiter twice (once in the idempotency layer); the header shows the doubled count.
      const l = limits(a);
      if (!l || !c.headers.authorization) return;
      const slot = `twice:${tenantOf(c)}:${c.base}`;
      const seen = (c.memory.get(slot) as { posts: number; last: number } | undefined) ?? { posts: 0, last: l.left };
      // A new window (the upstream counter went up again) starts the extra count afresh.
      const posts = (l.left > seen.last ? 0 : seen.posts) + (c.method === 'POST' ? 1 : 0);
      c.memory.set(slot, { posts, last: l.left });
      a.headers['x-ratelimit-remaining'] = String(Math.max(0, l.left - posts));
    },
  },
];
