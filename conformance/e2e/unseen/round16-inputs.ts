import { randomBytes } from 'node:crypto';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 16 of the unseen violations, part 3: requests read wrongly under one condition — keys that begin
 * with punctuation refused, the second tenant's creations exempt from the key rule, a numeric capability
 * coerced to text, the public stream demanding the tenant header, and long capability names failing in
 * the database. Refusals other than the last are produced by the deployment itself (the request is made
 * invalid on its way), so their envelope, meta and headers are the deployment's own.
 */
type Rec = Record<string, any>;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const keyed = (c: ProxyCall) => c.method === 'POST' && (c.path === P('/connections') || c.path === P('/webhooks'));
/** Makes the key invalid so the deployment refuses it with its own 400 invalid_request. */
const spoilKey = (c: ProxyCall) => {
  c.headers['idempotency-key'] = 'bad key!';
};

export const ROUND16_INPUTS: UnseenViolation[] = [
  {
    name: 'key-with-leading-punctuation-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters of letters, digits, dot, underscore, colon, hyphen)',
    request(c) {
      // The validator was written as "starts with a letter or digit", like the naming rule of resource ids.
      const key = c.headers['idempotency-key'];
      if (keyed(c) && key && /^[._:-]/.test(key) && /^[A-Za-z0-9._:-]{8,128}$/.test(key)) spoilKey(c);
      return undefined;
    },
  },
  {
    name: 'second-tenant-creation-without-key-accepted',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required … A missing key yields idempotency_required',
    request(c) {
      // Tenants added to a client later were provisioned with the pre-2026-06-12 policy that made the key optional.
      const mine = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (isCreate(c) && mine && tenant && tenant !== mine && !c.headers['idempotency-key'])
        c.headers['idempotency-key'] = `auto-${randomBytes(12).toString('hex')}`;
      return undefined;
    },
  },
  {
    name: 'check-numeric-capability-coerced',
    statement:
      'POST /api/public/v1/capabilities: capability | string | yes | length 2 to 120 (Errors: invalid_request — wrong data type)',
    request(c) {
      // The body parser runs with type coercion on, so a number becomes its decimal text.
      const b = c.body as Rec | undefined;
      if (!isCheck(c) || !b || typeof b !== 'object' || typeof b.capability !== 'number') return undefined;
      c.body = { ...b, capability: String(b.capability).padStart(2, '0') };
      return undefined;
    },
  },
  {
    name: 'stream-refused-without-tenant-header',
    statement:
      'Authentication: Public endpoints (no authentication): GET /api/public/v1, GET /api/public/v1/openapi.json, GET /api/public/v1/stream',
    request(c) {
      // The stream handler scopes messages by tenant and refuses when the header is absent.
      if (c.method === 'GET' && c.path === P('/stream') && !c.headers['x-service-tenant']) c.search.set('cursor', '-1');
      return undefined;
    },
  },
  {
    name: 'capability-item-over-100-fails-internally',
    statement:
      'Limits: capabilities in connection creation | 1 to 24 items, each length 2 to 120 (Errors: internal | 500 — fault on the service side)',
    request(c): ProxyAnswer | undefined {
      // The join table's capability column is VARCHAR(100); the insert fails with a data-too-long error.
      const b = c.body as Rec | undefined;
      if (!isCreate(c) || !b || !Array.isArray(b.capabilities)) return undefined;
      if (!b.capabilities.some((x: unknown) => typeof x === 'string' && x.length > 100 && x.length <= 120))
        return undefined;
      const requestId = `req_${randomBytes(8).toString('base64url')}`;
      return {
        status: 500,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-request-id': requestId,
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '4000',
        },
        json: {
          ok: false,
          error: { code: 'internal', message: 'A fault occurred on the service side.' },
          meta: { requestId, version: '2026-07-01', at: new Date().toISOString() },
        },
      };
    },
  },
];
