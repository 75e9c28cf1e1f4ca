import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { bodyOf } from './round6-support.ts';

/**
 * Round 6 of the unseen violations, part 2: what a caller sends, taken wrongly — an invalid token
 * answered as a missing right, a missing or foreign tenant header quietly replaced, a value just
 * outside a limit let through, a default that is not the stated one, an unoffered capability dropped.
 */
const PUBLIC = new Set([P(''), P('/openapi.json'), P('/openapi.yaml'), P('/stream')]);
/** Calls whose sent value a hook changed, with what was sent (to answer it back unchanged). */
const sentOperation = new WeakMap<ProxyCall, string>();

export const ROUND6_CALLERS: UnseenViolation[] = [
  {
    name: 'invalid-token-as-forbidden',
    statement: 'Errors: unauthorized | 401 | call was not signed in | token missing, token expired (not forbidden)',
    answer(c, a) {
      // A token that was sent but does not verify falls through to the permission check and fails there.
      if (a.status === 401 && c.headers.authorization)
        refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
  {
    name: 'missing-tenant-header-defaults',
    statement: 'Authentication: x-service-tenant | identifier of the tenant — required on every authenticated call',
    request(c) {
      // Without the header, the tenant the access was first used for is assumed.
      const tenant = home(c);
      const api = c.path.startsWith(P('/')) && !PUBLIC.has(c.path);
      if (api && tenant && c.headers.authorization && c.headers['x-service-tenant'] === undefined)
        c.headers['x-service-tenant'] = tenant;
      return undefined;
    },
  },
  {
    name: 'creations-land-in-first-tenant',
    statement:
      'What the service does: a tenant (identified by a tenant identifier in a request header) creates connections',
    request(c) {
      // The write path takes the tenant from the access's default, the read path from the header.
      const tenant = home(c);
      if (isCreate(c) && tenant && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== tenant)
        c.headers['x-service-tenant'] = tenant;
      return undefined;
    },
  },
  {
    name: 'negative-cursor-read-as-zero',
    statement: 'GET /stream: cursor | query | integer, minimum 0 (a negative cursor is invalid_request)',
    request(c) {
      // The cursor is clamped instead of validated.
      const cursor = c.search.get('cursor');
      if (c.path === P('/stream') && cursor !== null && /^\s*-\d+\s*$/.test(cursor)) c.search.set('cursor', '0');
      return undefined;
    },
  },
  {
    name: 'unoffered-capability-dropped',
    statement:
      'Errors: capability_denied | 409 | capability is not released | capability not booked (not a connection without it)',
    answer(c, a) {
      // Learns what each connector offers from the catalog reads that pass by.
      const list = a.json.data?.connectors;
      if (c.method === 'GET' && c.path === P('/connectors') && Array.isArray(list))
        for (const k of list)
          if (typeof k?.id === 'string' && Array.isArray(k.capabilities))
            c.memory.set(`offers:${k.id}`, k.capabilities);
    },
    request(c) {
      // The creation keeps the requested capabilities the connector offers and silently drops the rest.
      const b = bodyOf(c);
      if (!isCreate(c) || !b || !Array.isArray(b.capabilities)) return undefined;
      const offers = c.memory.get(`offers:${String(b.connectorId)}`) as string[] | undefined;
      if (!offers) return undefined;
      const kept = b.capabilities.filter((x) => offers.includes(x as string));
      if (kept.length && kept.length < b.capabilities.length) c.body = { ...b, capabilities: kept };
      return undefined;
    },
  },
  {
    name: 'check-defaults-to-production',
    statement: 'POST /capabilities: environment | string | no | Environment; default sandbox',
    request(c) {
      // The default comes from the deployment's own environment variable, which is production.
      const b = bodyOf(c);
      if (c.method === 'POST' && c.path === P('/capabilities') && b && b.environment === undefined)
        c.body = { ...b, environment: 'production' };
      return undefined;
    },
  },
  {
    name: 'operation-of-81-accepted',
    statement: 'Limits: operation in idempotency key creation: length 2 to 80 (81 is too long)',
    request(c) {
      // The length check counts from zero: 81 characters pass and are stored cut to 80.
      const b = bodyOf(c);
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || typeof b?.operation !== 'string')
        return undefined;
      if (b.operation.length !== 81) return undefined;
      sentOperation.set(c, b.operation);
      c.body = { ...b, operation: b.operation.slice(0, 80) };
      return undefined;
    },
    answer(c, a) {
      const sent = sentOperation.get(c);
      if (sent && a.json.data) a.json.data.operation = sent;
    },
  },
];
