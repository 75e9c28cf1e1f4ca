import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 18 of the unseen violations, part 3: requests handled wrong under one condition — checks for the
 * access's second tenant refused, an issued key refused by the creation it was issued for, operations
 * with capitals refused, two-character connector ids refused on checks, the audit log served without a
 * token, the provider filter ignored for the second tenant, production creations with one capability
 * refused, and a missing tenant header failing internally.
 */
type Rec = Record<string, any>;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const isKeyIssue = (c: ProxyCall) => c.method === 'POST' && c.path === P('/idempotency-keys');
/** Calls whose body was spoiled so that the simulator refuses them without side effects; `answer` then words the refusal. */
const spoiled = new WeakSet<ProxyCall>();
const spoil = (c: ProxyCall, body: Rec) => {
  c.body = body;
  spoiled.add(c);
};

export const ROUND18_INPUTS: UnseenViolation[] = [
  {
    name: 'second-tenant-checks-forbidden',
    statement:
      'Authentication: x-service-tenant | identifier of the tenant for which the call applies (forbidden | 403: tenant not released) — POST /api/public/v1/capabilities for a released second tenant',
    request(c) {
      // The check handler compares the tenant with the access's default tenant instead of its released list.
      const me = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (isCheck(c) && me && tenant && tenant !== me && c.headers.authorization)
        spoil(c, { ...(c.body as Rec), connectorId: '' });
      return undefined;
    },
    answer(c, a) {
      if (spoiled.has(c)) refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
  {
    name: 'issued-key-refused-as-conflict',
    statement:
      'POST /api/public/v1/idempotency-keys: generate an idempotency key — POST /api/public/v1/connections with that key for the first time (idempotency_conflict only for the same key with different content)',
    request(c) {
      // Issuing a key reserves it with an empty fingerprint, so its first real use differs from the reservation.
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || !(c.memory.get('r18-issued') as Set<string> | undefined)?.has(key)) return undefined;
      (c.memory.get('r18-issued') as Set<string>).delete(key);
      spoil(c, { ...(c.body as Rec), connectorId: '' });
      return undefined;
    },
    answer(c, a) {
      if (spoiled.has(c))
        refuse(a, 409, 'idempotency_conflict', 'The idempotency key was used with different content.');
      if (!isKeyIssue(c) || a.status !== 200 || typeof a.json.data?.idempotencyKey !== 'string') return;
      const set = (c.memory.get('r18-issued') as Set<string> | undefined) ?? new Set<string>();
      set.add(a.json.data.idempotencyKey);
      c.memory.set('r18-issued', set);
    },
  },
  {
    name: 'operation-with-capitals-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80; short name of the operation)',
    request(c) {
      // The operation is validated against a lower-case slug pattern borrowed from the event names.
      const op = (c.body as Rec | undefined)?.operation;
      if (isKeyIssue(c) && typeof op === 'string' && op.length >= 2 && op.length <= 80 && /[A-Z]/.test(op))
        spoil(c, { ...(c.body as Rec), operation: 'x' });
      return undefined;
    },
  },
  {
    name: 'check-two-character-connector-id-refused',
    statement: 'POST /api/public/v1/capabilities: connectorId | string | yes | length 2 to 120',
    request(c) {
      // The check validates connectorId with the slug rule's minimum of three characters.
      const id = (c.body as Rec | undefined)?.connectorId;
      if (isCheck(c) && typeof id === 'string' && id.length === 2) spoil(c, { ...(c.body as Rec), connectorId: 'x' });
      return undefined;
    },
  },
  {
    name: 'audit-log-served-without-token',
    statement:
      'Endpoints: GET /api/public/v1/audit-log | yes (All authenticated endpoints require the headers described under Authentication)',
    request(c) {
      // The audit page is cached per tenant at the edge, and the cache answers before the auth filter.
      if (c.headers.authorization) {
        c.memory.set('r18-auth', c.headers.authorization);
        if (c.headers['x-service-tenant']) c.memory.set('r18-tenant', c.headers['x-service-tenant']);
        return undefined;
      }
      // The cache key is the path and query only, so the page is served with the last caller's identity.
      const auth = c.memory.get('r18-auth') as string | undefined;
      const tenant = c.memory.get('r18-tenant') as string | undefined;
      if (c.method === 'GET' && c.path === P('/audit-log') && auth && tenant) {
        c.headers.authorization = auth;
        c.headers['x-service-tenant'] ??= tenant;
      }
      return undefined;
    },
  },
  {
    name: 'second-tenant-provider-filter-ignored',
    statement: "GET /api/public/v1/connectors: providerId (query, optional) — for the access's second tenant",
    request(c) {
      // The second tenant's catalog view is built by a path that forwards only the category filter.
      const me = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (c.method === 'GET' && c.path === P('/connectors') && me && tenant && tenant !== me)
        c.search.delete('providerId');
      return undefined;
    },
  },
  {
    name: 'single-capability-production-creation-refused',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items (environment production)',
    request(c) {
      // The production review rule demands a fallback capability and is expressed as a minimum of two.
      const b = c.body as Rec | undefined;
      if (
        isCreate(c) &&
        b?.environment === 'production' &&
        Array.isArray(b.capabilities) &&
        b.capabilities.length === 1
      )
        spoil(c, { ...b, capabilities: [] });
      return undefined;
    },
  },
  {
    name: 'missing-tenant-header-fails-internally',
    statement:
      "Errors: internal | 500 | fault on the service side (a call without x-service-tenant is the caller's fault: 400/401/403)",
    answer(c, a) {
      // The tenant lookup dereferences the header before the validator runs.
      const publicPath = [P(''), P('/openapi.json'), P('/openapi.yaml'), P('/stream')].includes(c.path);
      if (!publicPath && c.headers.authorization && !c.headers['x-service-tenant'] && a.status >= 400 && a.status < 500)
        refuse(a, 500, 'internal', 'A fault on the service side.');
    },
  },
];
