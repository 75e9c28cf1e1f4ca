import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 20 of the unseen violations, part 2: inputs — a connectorId of 120 characters refused at
 * creation, alternate-address creations without a key accepted, operations with a space refused,
 * creations keeping only two capabilities, alternate-address checks ignoring the environment, scope
 * labels with a line break failing internally, webhook registrations keeping only their first event,
 * and keys issued for a tenant that is not released.
 */
type Rec = Record<string, any>;
const body = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : undefined);
const meta = () => ({
  requestId: `req_${Math.random().toString(36).slice(2, 18)}`,
  version: '2026-07-01',
  at: new Date().toISOString(),
});
const invalid = (message: string) => ({
  status: 400,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  json: { ok: false, error: { code: 'invalid_request', message }, meta: meta() },
});

export const ROUND20_INPUTS: UnseenViolation[] = [
  {
    name: 'creation-connector-id-of-120-refused',
    statement: 'POST /api/public/v1/connections: connectorId | string | length 2 to 120',
    request(c) {
      // The creation validator uses "< 120" where the check's validator uses "<= 120".
      const b = body(c.body);
      if (!isCreate(c) || typeof b?.connectorId !== 'string' || b.connectorId.length !== 120) return undefined;
      return invalid('connectorId must be shorter than 120 characters.');
    },
  },
  {
    name: 'alt-creation-without-key-accepted',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required ... A missing key yields idempotency_required (under {alt_base_url} as well)',
    request(c) {
      // The alternate host's gateway fills in a generated key for clients that forgot one.
      if (c.base !== 'alt' || !isCreate(c) || c.headers['idempotency-key'] !== undefined) return undefined;
      c.headers['idempotency-key'] = `gw-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
      return undefined;
    },
  },
  {
    name: 'operation-with-space-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required, length 2 to 80; short name of the operation)',
    request(c) {
      // The operation is used as a metrics label, and the label sanitizer rejects whitespace.
      const b = body(c.body);
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || typeof b?.operation !== 'string')
        return undefined;
      if (!/\s/.test(b.operation) || b.operation.length < 2 || b.operation.length > 80) return undefined;
      return invalid('operation must not contain whitespace.');
    },
  },
  {
    name: 'creation-keeps-two-capabilities',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items — A connection binds a connector to ... a set of capabilities',
    request(c) {
      // The booking insert is built from a fixed two-slot tuple left over from the first release.
      const b = body(c.body);
      if (!isCreate(c) || !Array.isArray(b?.capabilities) || b.capabilities.length < 3) return undefined;
      if (!b.capabilities.every((x: unknown) => typeof x === 'string' && x.length >= 2 && x.length <= 120))
        return undefined;
      if (b.capabilities.length > 24) return undefined;
      c.body = { ...b, capabilities: b.capabilities.slice(0, 2) };
      return undefined;
    },
  },
  {
    name: 'alt-check-ignores-environment',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox (under {alt_base_url} as well)',
    request(c) {
      // The alternate host's body parser only maps the two required fields onto the check command.
      const b = body(c.body);
      if (c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/capabilities') || !b || !('environment' in b))
        return undefined;
      const { environment: _e, ...rest } = b;
      c.body = rest;
      return undefined;
    },
  },
  {
    name: 'scope-label-line-break-fails-internally',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120 — internal | 500 | fault on the service side',
    request(c) {
      // The label goes unescaped into a structured log line, and the log shipper throws on the break.
      const b = body(c.body);
      if (!isCreate(c) || typeof b?.scopeLabel !== 'string' || !/[\r\n\t]/.test(b.scopeLabel)) return undefined;
      return {
        status: 500,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        json: { ok: false, error: { code: 'internal', message: 'Fault on the service side.' }, meta: meta() },
      };
    },
  },
  {
    name: 'webhook-registration-keeps-first-event',
    statement:
      'Webhooks: A webhook receiver is registered with POST /api/public/v1/webhooks, giving a url and a list of event names',
    request(c) {
      // The subscription column was declared as a single event name; the list's head is stored.
      const b = body(c.body);
      if (c.method !== 'POST' || c.path !== P('/webhooks') || !Array.isArray(b?.events) || b.events.length < 2)
        return undefined;
      c.body = { ...b, events: b.events.slice(0, 1) };
      return undefined;
    },
  },
  {
    name: 'foreign-tenant-issued-keys',
    statement: 'Errors: forbidden | 403 | access may not perform the action | role missing, tenant not released',
    answer(c, a) {
      // The key endpoint was exempted from the tenant-release middleware as "stateless".
      home(c);
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.json.error?.code !== 'forbidden') return;
      const b = body(c.body);
      const operation = typeof b?.operation === 'string' ? b.operation : 'connection.create';
      const { replayed: _r, ...m } = (a.json.meta ?? meta()) as Rec;
      a.status = 200;
      a.json = {
        ok: true,
        data: {
          idempotencyKey: `key_${Math.random().toString(36).slice(2, 22)}`,
          operation,
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        },
        meta: m,
      };
    },
  },
];
