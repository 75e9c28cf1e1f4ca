import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 33 of the unseen violations, part 2: inputs — venue names with an ampersand refused, webhook
 * registrations without a key accepted and long operations refused under the alternate address,
 * a second tenant's overlong capability items dropped and its two-character checks refused, fractional
 * cursors read as whole numbers, operations with a colon refused, and key issues without an operation
 * accepted under the alternate address.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** A call for a tenant other than the run's own one; call it on every call, as it records that tenant from the first. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isKeyIssue = (c: ProxyCall) => c.method === 'POST' && c.path === P('/idempotency-keys');
/**
 * A refusal made by the service itself: the request is spoilt (one field emptied) so the service answers
 * 400 with its own headers and meta and no side effect; the answer then carries the deployment's words.
 */
const spoilt = new WeakSet<ProxyCall>();
const spoil = (c: ProxyCall, b: Rec, field: string) => {
  c.body = { ...b, [field]: '' };
  spoilt.add(c);
  return undefined;
};
const reword = (message: string) => (c: ProxyCall, a: ProxyAnswer) => {
  if (spoilt.has(c) && a.status === 400) refuse(a, 400, 'invalid_request', message);
};

export const ROUND33_INPUTS: UnseenViolation[] = [
  {
    name: 'scope-label-with-ampersand-refused',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120 (a venue name such as "Fish & Chips")',
    request(c) {
      // A web application firewall rule against query-string injection also inspects JSON bodies.
      const b = body(c);
      if (!isCreate(c) || typeof b?.scopeLabel !== 'string' || !b.scopeLabel.includes('&')) return undefined;
      return spoil(c, b, 'scopeLabel');
    },
    answer: reword('scopeLabel: characters not allowed.'),
  },
  {
    name: 'alt-webhooks-without-key-accepted',
    statement:
      'Endpoints: POST /api/public/v1/webhooks | yes + key; Errors: idempotency_required | 428 | header Idempotency-Key missing (under {alt_base_url} too)',
    request(c) {
      // The alternate edge "helpfully" generates a key for writes that arrive without one.
      if (c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/webhooks') || c.headers['idempotency-key'])
        return undefined;
      c.headers['idempotency-key'] = `edge-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
      return undefined;
    },
  },
  {
    name: 'alt-operation-of-80-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) — under {alt_base_url} too',
    request(c) {
      // The alternate region's key table still has a VARCHAR(64) operation column.
      const b = body(c);
      if (c.base !== 'alt' || !isKeyIssue(c) || typeof b?.operation !== 'string') return undefined;
      if (b.operation.length <= 64 || b.operation.length > 80) return undefined;
      return spoil(c, b, 'operation');
    },
    answer: reword('operation: at most 64 characters.'),
  },
  {
    name: 'second-tenant-overlong-capability-items-dropped',
    statement:
      'POST /api/public/v1/connections: capabilities | 1 to 24 items, each of length 2 to 120 (for a second tenant too: an item of 121 is refused)',
    request(c) {
      // The second tenant's region filters the list through a "known capability ids" sanitiser before validation.
      // The tenant check runs first: it records the run's own tenant from the first call.
      const second = isSecond(c);
      const b = body(c);
      if (!second || !isCreate(c) || !Array.isArray(b?.capabilities)) return undefined;
      const kept = (b.capabilities as unknown[]).filter((x) => typeof x !== 'string' || x.length <= 120);
      if (kept.length && kept.length < b.capabilities.length) c.body = { ...b, capabilities: kept };
      return undefined;
    },
  },
  {
    name: 'fractional-cursor-read-as-whole-number',
    statement:
      'GET /api/public/v1/stream: cursor | query | integer, minimum 0; Errors: invalid_request | 400 | wrong data type',
    request(c) {
      // The cursor goes through Math.floor(Number(x)) instead of an integer check.
      const cursor = c.search.get('cursor');
      if (c.method !== 'GET' || c.path !== P('/stream') || !cursor || !/^\d+\.\d+$/.test(cursor)) return undefined;
      c.search.set('cursor', String(Math.floor(Number(cursor))));
      return undefined;
    },
  },
  {
    name: 'operation-with-colon-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80; short name of the operation) — a colon is a character like any other',
    request(c) {
      // The operation is stored as part of a colon-separated cache key, so colons are refused up front.
      const b = body(c);
      if (!isKeyIssue(c) || typeof b?.operation !== 'string' || !b.operation.includes(':')) return undefined;
      return spoil(c, b, 'operation');
    },
    answer: reword('operation: must not contain ":".'),
  },
  {
    name: 'second-tenant-two-character-capability-check-refused',
    statement:
      'POST /api/public/v1/capabilities: capability | string | yes | length 2 to 120 (for a second tenant too)',
    request(c) {
      // The second tenant's policy engine requires "family.name" capability ids of at least three characters.
      const second = isSecond(c);
      const b = body(c);
      if (!second || c.method !== 'POST' || c.path !== P('/capabilities') || typeof b?.capability !== 'string')
        return undefined;
      return b.capability.length === 2 ? spoil(c, b, 'capability') : undefined;
    },
    answer: reword('capability: at least 3 characters.'),
  },
  {
    name: 'alt-key-issue-without-operation-accepted',
    statement:
      'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required) — under {alt_base_url} too',
    request(c) {
      // The alternate build declares the operation with a default value for an old client library.
      const b = body(c) ?? {};
      if (c.base !== 'alt' || !isKeyIssue(c) || typeof b.operation === 'string') return undefined;
      if (b.operation !== undefined && b.operation !== null) return undefined;
      c.body = { ...b, operation: 'connection.create' };
      return undefined;
    },
  },
];
