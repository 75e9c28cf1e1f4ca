import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 25 of the unseen violations, part 2: inputs — a two-character capability item refused, the
 * current Service-Version refused on checks, keys starting with a digit refused, scope labels with an
 * apostrophe failing internally, pilot checks refused, capability lists limited by their joined length,
 * cursors over three digits refused, and the second tenant's checks defaulting to production.
 */
type Rec = Record<string, unknown>;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Rec) : {});
/** A failure envelope answered before the simulator sees the call. */
const failure = (status: number, code: string, message: string): ProxyAnswer => ({
  status,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4000',
  },
  json: {
    ok: false,
    error: { code, message },
    meta: {
      requestId: `req_r25_${Math.random().toString(36).slice(2, 12)}`,
      version: '2026-07-01',
      at: new Date().toISOString(),
    },
  },
});

export const ROUND25_INPUTS: UnseenViolation[] = [
  {
    name: 'creation-capability-item-of-two-refused',
    statement: 'POST /api/public/v1/connections: capabilities — 1 to 24 items, each of length 2 to 120',
    request(c) {
      // The item rule was written as a regex {3,120} copied from the provider-slug validator.
      if (!isCreate(c)) return undefined;
      const caps = body(c).capabilities;
      if (Array.isArray(caps) && caps.some((x) => typeof x === 'string' && x.length === 2))
        return failure(400, 'invalid_request', 'capabilities: each item must be 3 to 120 characters');
      return undefined;
    },
  },
  {
    name: 'current-service-version-refused-on-checks',
    statement:
      'Versioning: The current version identifier is 2026-07-01 ... Sample calls send a header Service-Version with the version identifier',
    request(c) {
      // The check route's version gate lists only the versions the decision engine was certified for,
      // and the current one was never added.
      if (isCheck(c) && c.headers['service-version'] === '2026-07-01')
        return failure(400, 'invalid_request', 'Service-Version 2026-07-01 is not supported for this call');
      return undefined;
    },
  },
  {
    name: 'key-starting-with-digit-refused',
    statement: 'Limits: Idempotency-Key — pattern ^[A-Za-z0-9._:-]{8,128}$',
    request(c) {
      // The key is used as an XML-ish cache tag name downstream, so the gateway insists on a leading letter.
      if (c.method !== 'POST') return undefined;
      const key = c.headers['idempotency-key'];
      if (key && /^[0-9]/.test(key)) return failure(400, 'invalid_request', 'Idempotency-Key must start with a letter');
      return undefined;
    },
  },
  {
    name: 'scope-label-apostrophe-fails-internally',
    statement:
      'POST /api/public/v1/connections: scopeLabel — string, length 2 to 120 (internal: fault on the service side)',
    request(c) {
      // The label is spliced into a SQL string for the venue lookup: an apostrophe breaks the statement.
      const label = body(c).scopeLabel;
      if (isCreate(c) && typeof label === 'string' && /['’]/.test(label))
        return failure(500, 'internal', 'Operational disturbance, note the request identifier');
      return undefined;
    },
  },
  {
    name: 'pilot-check-refused',
    statement:
      'POST /api/public/v1/capabilities: environment — string, no, Environment (development, sandbox, pilot, production)',
    request(c) {
      // The check endpoint validates against the old three-stage enum that predates pilot.
      if (isCheck(c) && body(c).environment === 'pilot')
        return failure(400, 'invalid_request', 'environment must be one of development, sandbox, production');
      return undefined;
    },
  },
  {
    name: 'capabilities-joined-length-limited',
    statement: 'Limits: capabilities in connection creation — 1 to 24 items, each length 2 to 120',
    request(c) {
      // The items are stored comma-joined in a varchar(255) column; a longer list fails validation.
      const caps = body(c).capabilities;
      if (isCreate(c) && Array.isArray(caps) && caps.every((x) => typeof x === 'string') && caps.join(',').length > 255)
        return failure(400, 'invalid_request', 'capabilities too long');
      return undefined;
    },
  },
  {
    name: 'cursor-over-three-digits-refused',
    statement: 'GET /api/public/v1/stream: cursor — query, integer, minimum 0 (Limits: cursor integer, minimum 0)',
    request(c) {
      // The cursor is parsed with a /^\d{1,3}$/ rule from the days the backlog held 999 messages.
      if (c.method !== 'GET' || c.path !== P('/stream')) return undefined;
      const cursor = c.search.get('cursor') ?? c.headers['last-event-id'];
      if (cursor && /^\d{4,}$/.test(cursor)) return failure(400, 'invalid_request', 'cursor must be at most 999');
      return undefined;
    },
  },
  {
    name: 'second-tenant-check-defaults-to-production',
    statement: 'POST /api/public/v1/capabilities: environment — Environment; default sandbox',
    request(c) {
      // The default environment is read from the tenant's settings row; the second tenant's row says production.
      const mine = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (!isCheck(c) || !mine || !tenant || tenant === mine) return undefined;
      const b = body(c);
      if (c.body === b && b.environment === undefined) c.body = { ...b, environment: 'production' };
      return undefined;
    },
  },
];
