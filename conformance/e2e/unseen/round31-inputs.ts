import type { UnseenViolation } from './proxy.ts';
import { isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 31 of the unseen violations, part 2: inputs — a same-key fingerprint blind to the scope label's
 * letter case, unknown creation fields dropped under the alternate
 * address, 25 capabilities accepted for pilot, over-long connector ids of checks cut under the
 * alternate address, the key operation trimmed, two-character scope labels refused for development,
 * keys over 100 characters refused under the alternate address, and the second tenant's production
 * checks reported as sandbox.
 */
type Rec = Record<string, any>;
const body = (c: { body: unknown }) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
const FIELDS = new Set(['connectorId', 'environment', 'scopeLabel', 'capabilities']);

export const ROUND31_INPUTS: UnseenViolation[] = [
  {
    name: 'fingerprint-scope-label-case-insensitive',
    statement: 'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict',
    request(c) {
      // The fingerprint column uses a case-insensitive collation: a label differing only in letter case
      // is "the same content" and replays. The proxy sends the first spelling on, as the store would.
      const b = body(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !b || !key || typeof b.scopeLabel !== 'string') return undefined;
      const slot = `fp-case:${c.headers['x-service-tenant'] ?? ''}:${key}`;
      const first = c.memory.get(slot) as string | undefined;
      if (first === undefined) c.memory.set(slot, b.scopeLabel);
      else if (first !== b.scopeLabel && first.toLowerCase() === b.scopeLabel.toLowerCase())
        c.body = { ...b, scopeLabel: first };
      return undefined;
    },
  },
  {
    name: 'alt-creation-unknown-fields-accepted',
    statement:
      'POST /api/public/v1/connections: … sends a field restaurantId in place of scopeLabel; the field list above is the schema (under {alt_base_url})',
    request(c) {
      // The alternate domain's gateway maps the body onto the published model before forwarding: unknown
      // fields are silently dropped instead of refused.
      const b = body(c);
      if (c.base !== 'alt' || !isCreate(c) || !b || Array.isArray(b)) return undefined;
      if (Object.keys(b).some((k) => !FIELDS.has(k)))
        c.body = Object.fromEntries(Object.entries(b).filter(([k]) => FIELDS.has(k)));
      return undefined;
    },
  },
  {
    name: 'pilot-creation-25-capabilities-accepted',
    statement: 'Limits: capabilities in connection creation — 1 to 24 items (for the pilot environment)',
    request(c) {
      // The pilot tier's validator was configured from the "extended" plan (32 items); the store keeps 24.
      const b = body(c);
      if (!isCreate(c) || !b || b.environment !== 'pilot' || !Array.isArray(b.capabilities)) return undefined;
      if (b.capabilities.length > 24 && b.capabilities.length <= 32)
        c.body = { ...b, capabilities: b.capabilities.slice(0, 24) };
      return undefined;
    },
  },
  {
    name: 'alt-check-connector-id-over-120-cut',
    statement: 'POST /api/public/v1/capabilities: connectorId — string, length 2 to 120 (under {alt_base_url})',
    request(c) {
      // The alternate domain's edge copies the body into a fixed-width field of 120 characters.
      const b = body(c);
      if (c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/capabilities') || !b) return undefined;
      if (typeof b.connectorId === 'string' && [...b.connectorId].length > 120)
        c.body = { ...b, connectorId: [...b.connectorId].slice(0, 120).join('') };
      return undefined;
    },
  },
  {
    name: 'issued-key-operation-trimmed',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) — data: idempotencyKey, operation, expiresAt',
    request(c) {
      // A global "trim all strings" body middleware runs before the handler, so the answer's operation
      // is not the one sent (and a 2-character operation with a blank is refused as too short).
      const b = body(c);
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || typeof b?.operation !== 'string')
        return undefined;
      if (b.operation.trim() !== b.operation) c.body = { ...b, operation: b.operation.trim() };
      return undefined;
    },
  },
  {
    name: 'development-two-character-scope-label-refused',
    statement: 'Limits: scopeLabel — length 2 to 120 (for the development environment)',
    answer(c, a) {
      // The development tier reuses the sandbox signup form's rule "at least 3 characters".
      const b = body(c);
      if (!isCreate(c) || a.status !== 200 || b?.environment !== 'development') return;
      if (typeof b.scopeLabel === 'string' && [...b.scopeLabel].length === 2)
        refuse(a, 400, 'invalid_request', 'The request is incomplete or unsuitable.', 'scopeLabel is too short');
    },
  },
  {
    name: 'alt-key-over-100-refused',
    statement:
      'Limits: Idempotency-Key — pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters) — under {alt_base_url}',
    request(c) {
      // The alternate domain's WAF caps custom header values at 100 characters.
      const key = c.headers['idempotency-key'];
      if (c.base !== 'alt' || c.method !== 'POST' || key === undefined || key.length <= 100 || key.length > 128)
        return undefined;
      const requestId = `req_waf${Date.now().toString(36)}`;
      const a = {
        status: 400,
        headers: { 'x-request-id': requestId },
        json: { meta: { requestId, version: '2026-07-01', at: new Date().toISOString() } } as Rec,
      };
      refuse(a, 400, 'invalid_request', 'The request is incomplete or unsuitable.', 'header value too long');
      return a;
    },
  },
  {
    name: 'second-tenant-production-check-reported-as-sandbox',
    statement:
      'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment) — for the second tenant',
    answer(c, a) {
      // The second tenant's checks go through a sandbox-only policy replica whose answer names its own
      // environment, not the one asked about.
      const b = body(c);
      const first = c.memory.get('first-tenant') ?? c.headers['x-service-tenant'];
      if (!c.memory.has('first-tenant') && c.headers.authorization) c.memory.set('first-tenant', first);
      if (c.method !== 'POST' || c.path !== P('/capabilities') || a.status !== 200) return;
      if (c.headers['x-service-tenant'] === first || b?.environment !== 'production' || !a.json.data) return;
      a.json.data.environment = 'sandbox';
    },
  },
];
