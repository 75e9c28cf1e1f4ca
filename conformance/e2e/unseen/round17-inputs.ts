import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 17 of the unseen violations, part 2: inputs judged wrongly under one condition — a check
 * capability of exactly 120 characters refused, an operation of exactly two characters refused, a
 * resume from Last-Event-ID 0 refused, a key of exactly eight characters refused, pilot creations
 * refused, a null environment on a check failing internally, the second tenant's replays answered as conflicts,
 * and a foreign tenant under the alternate address answered as not signed in.
 */
type Rec = Record<string, any>;
const bodyOf = (c: ProxyCall): Rec | undefined =>
  c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Rec) : undefined;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');

export const ROUND17_INPUTS: UnseenViolation[] = [
  {
    name: 'check-capability-of-120-refused',
    statement: 'POST /api/public/v1/capabilities: capability | string | yes | length 2 to 120',
    request(c) {
      // The check validates with `length < 120` (an exclusive bound copied from a loop condition).
      const b = bodyOf(c);
      if (isCheck(c) && b && typeof b.capability === 'string' && b.capability.length === 120)
        c.body = { ...b, capability: `${b.capability}x` };
      return undefined;
    },
  },
  {
    name: 'operation-of-two-characters-refused',
    statement: 'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80)',
    request(c) {
      // The validator's minimum was written as 3 ("a.b" is the shortest dotted name the team imagined).
      const b = bodyOf(c);
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && b && typeof b.operation === 'string')
        if (b.operation.length === 2) c.body = { ...b, operation: b.operation.slice(0, 1) };
      return undefined;
    },
  },
  {
    name: 'last-event-id-zero-refused',
    statement:
      'GET /api/public/v1/stream: Last-Event-ID | header | string | no | last number read (cursor: integer, minimum 0)',
    request(c) {
      // The header is parsed with `Number(h) || -1`, so the number 0 falls through to the invalid marker.
      if (c.method !== 'GET' || c.path !== P('/stream') || c.headers['last-event-id']?.trim() !== '0') return undefined;
      delete c.headers['last-event-id'];
      c.search.set('cursor', '-1');
      return undefined;
    },
  },
  {
    name: 'key-of-eight-characters-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters of letters, digits, dot, underscore, colon, hyphen)',
    request(c) {
      // The length check is `key.length > 8`, written from the words "more than 8" in a ticket.
      const key = c.headers['idempotency-key'];
      if (c.method === 'POST' && key !== undefined && key.length === 8) c.headers['idempotency-key'] = `${key}!`;
      return undefined;
    },
  },
  {
    name: 'pilot-creation-refused',
    statement:
      'POST /api/public/v1/connections: environment | string | Environment (Environment: development, sandbox, pilot, production)',
    request(c) {
      // The creation validator's environment list was copied from the billing module, which has no pilot.
      const b = bodyOf(c);
      if (isCreate(c) && b?.environment === 'pilot') c.body = { ...b, environment: 'pilot-unsupported' };
      return undefined;
    },
  },
  {
    name: 'check-environment-null-fails-internally',
    statement:
      'Errors: invalid_request | 400 | request incomplete or unsuitable | wrong data type (POST /capabilities: environment | string | no)',
    answer(c, a) {
      // `env ?? "sandbox"` is skipped for the validator but null reaches the lookup table, which throws.
      if (!isCheck(c) || bodyOf(c)?.environment !== null || a.status !== 400) return;
      refuse(a, 500, 'internal', 'An unexpected error occurred.');
    },
  },
  {
    name: 'second-tenant-replay-conflicts',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true (x-service-tenant: the tenant for which the call applies)',
    answer(c, a) {
      // The stored fingerprint hashes the header's tenant, the lookup the token's default tenant: only the second tenant's repeats differ.
      const mine = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true || !mine || !tenant || tenant === mine)
        return;
      refuse(a, 409, 'idempotency_conflict', 'The idempotency key was used with different content.');
    },
  },
  {
    name: 'alt-foreign-tenant-as-unauthorized',
    statement:
      'Errors: forbidden | 403 | access may not perform the action | tenant not released (unauthorized | 401: token missing, token expired, wrong environment) — the same interface under {alt_base_url}',
    answer(c, a) {
      // The alternate address's gateway maps every authorisation failure of the backend to 401.
      if (c.base === 'alt' && a.status === 403 && a.json.error?.code === 'forbidden')
        refuse(a, 401, 'unauthorized', 'The call was not signed in.');
    },
  },
];
