import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 34 of the unseen violations, part 2: inputs — writes under the alternate address with an unknown
 * token, exponent cursors, null capability items failing internally, a second tenant's receivers without
 * a key, development creations capped at sixteen capabilities, one-character connector checks under the
 * alternate address answered not_found, earlier-version creations without a venue name, and a second
 * tenant's key replayed for another connector.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
/** The service refuses a spoilt request itself (400, its own meta, no effect); the answer then gets new words. */
const spoilt = new WeakSet<ProxyCall>();
const spoil = (c: ProxyCall, b: Rec, field: string, value: unknown) => {
  c.body = { ...b, [field]: value };
  spoilt.add(c);
  return undefined;
};
const reword = (message: string) => (c: ProxyCall, a: ProxyAnswer) => {
  if (spoilt.has(c) && a.status === 400) refuse(a, 400, 'invalid_request', message);
};
const EARLIER = '2026-06-12';

export const ROUND34_INPUTS: UnseenViolation[] = [
  {
    name: 'alt-writes-accept-unknown-token',
    statement:
      'Errors: unauthorized | 401 | call was not signed in | token missing, token expired (writes under {alt_base_url} with a token the service never issued)',
    request(c) {
      // The alternate gateway falls back to the last good session of its connection pool for writes.
      home(c);
      const auth = c.headers.authorization ?? '';
      const known = (c.memory.get('r34-tokens') as string[] | undefined) ?? [];
      const good = known.at(-1);
      if (c.base === 'alt' && c.method === 'POST' && auth.startsWith('Bearer ') && good && !known.includes(auth))
        c.headers.authorization = good;
      return undefined;
    },
    answer(c, a) {
      const auth = c.headers.authorization;
      const known = (c.memory.get('r34-tokens') as string[] | undefined) ?? [];
      if (auth && a.status !== 401) c.memory.set('r34-tokens', [...known.filter((t) => t !== auth), auth]);
    },
  },
  {
    name: 'cursor-exponent-notation-accepted',
    statement: 'GET /api/public/v1/stream: cursor | query | integer, minimum 0 ("1e1" is no integer)',
    request(c) {
      // The cursor is parsed with Number() and then checked with Number.isInteger, so "1e1" passes as 10.
      const cursor = c.search.get('cursor');
      if (c.method !== 'GET' || c.path !== P('/stream') || !cursor || !/^\d+(\.\d+)?e\+?\d+$/i.test(cursor))
        return undefined;
      const n = Number(cursor);
      if (Number.isSafeInteger(n)) c.search.set('cursor', String(n));
      return undefined;
    },
  },
  {
    name: 'creation-capability-item-null-fails-internally',
    statement:
      'Errors: invalid_request | 400 | wrong data type; internal | 500 | fault on the service side (a creation with a null capability item)',
    answer(c, a) {
      // The capability lookup calls .trim() on every item before validation runs.
      home(c);
      const items = body(c)?.capabilities;
      if (!isCreate(c) || a.status !== 400 || !Array.isArray(items) || !items.includes(null)) return;
      refuse(a, 500, 'internal', 'An internal error occurred.');
    },
  },
  {
    name: 'second-tenant-webhooks-without-key-accepted',
    statement:
      'Endpoints: POST /api/public/v1/webhooks | yes + key; Errors: idempotency_required | 428 (for a second tenant too)',
    request(c) {
      // The second tenant's plan has "auto-keys" switched on, a convenience meant for its dashboard only.
      const second = isSecond(c);
      if (!second || c.method !== 'POST' || c.path !== P('/webhooks') || c.headers['idempotency-key']) return undefined;
      c.headers['idempotency-key'] = `auto-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
      return undefined;
    },
  },
  {
    name: 'development-creation-capabilities-limit-sixteen',
    statement:
      'Limits: capabilities in connection creation | 1 to 24 items (a development connection with 17 to 24 too)',
    request(c) {
      // The development provisioner has a 16-slot feature table and validates against it first.
      home(c);
      const b = body(c);
      if (!isCreate(c) || b?.environment !== 'development' || !Array.isArray(b.capabilities)) return undefined;
      return b.capabilities.length > 16 && b.capabilities.length <= 24 ? spoil(c, b, 'capabilities', []) : undefined;
    },
    answer: reword('capabilities: at most 16 items in development.'),
  },
  {
    name: 'alt-one-character-connector-check-not-found',
    statement:
      'POST /api/public/v1/capabilities: connectorId | length 2 to 120; Errors: invalid_request | 400 (under {alt_base_url} too)',
    answer(c, a) {
      // The alternate build validates connectorId as non-empty only and then fails the catalog lookup.
      home(c);
      const b = body(c);
      if (c.base !== 'alt' || !isCheck(c) || a.status !== 400 || typeof b?.connectorId !== 'string') return;
      if (b.connectorId.length !== 1 || typeof b.capability !== 'string' || b.capability.length < 2) return;
      refuse(
        a,
        404,
        'not_found',
        'The entry does not exist.',
        'No connector with the id given in body field connectorId.',
      );
    },
  },
  {
    name: 'earlier-version-creation-without-scope-label-accepted',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: scopeLabel (with Service-Version 2026-06-12 too)',
    request(c) {
      // The 2026-06-12 request model declared scopeLabel with a default of the connector id.
      home(c);
      const b = body(c);
      if (!isCreate(c) || c.headers['service-version'] !== EARLIER || !b || b.scopeLabel !== undefined)
        return undefined;
      if (typeof b.connectorId === 'string' && b.connectorId.length >= 2) c.body = { ...b, scopeLabel: b.connectorId };
      return undefined;
    },
  },
  {
    name: 'second-tenant-conflict-ignores-connector-id',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict (a second tenant’s key with another connectorId)',
    request(c) {
      // The second tenant's fingerprint is computed from an older field list that had no connectorId.
      const second = isSecond(c);
      const b = body(c);
      const key = c.headers['idempotency-key'];
      if (!second || !isCreate(c) || !b || !key) return undefined;
      const slot = `r34-fp:${c.headers['x-service-tenant']}:${key}`;
      const first = c.memory.get(slot) as Rec | undefined;
      if (!first) return void c.memory.set(slot, b);
      const { connectorId: _a, ...rest } = b;
      const { connectorId: _b, ...stored } = first;
      if (first.connectorId !== b.connectorId && JSON.stringify(rest) === JSON.stringify(stored))
        c.body = { ...b, connectorId: first.connectorId };
      return undefined;
    },
  },
];
