import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 40 of the unseen violations, part 2: inputs — alternate checks refusing two-character
 * capabilities, a second tenant's 128-character keys refused, alternate creations refusing 24
 * capabilities, the earlier version refusing two-character operations and scope labels, a second tenant's
 * unknown check environments read as sandbox, alternate checks without a connector taking the previous
 * one, and key-less creations reusing the last replayed key.
 */
type Rec = Record<string, any>;
const EARLIER = '2026-06-12';
const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const isKeyIssue = (c: ProxyCall) => c.method === 'POST' && c.path === P('/idempotency-keys');
const bodyOf = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** Sends a copy with one field changed, so the simulator's own refusal (headers, meta) answers. */
const withField = (c: ProxyCall, field: string, value: unknown) => {
  c.body = { ...bodyOf(c), [field]: value };
};

export const ROUND40_INPUTS: UnseenViolation[] = [
  {
    name: 'alt-two-character-capability-check-refused',
    statement:
      'POST /api/public/v1/capabilities: capability | string | yes | length 2 to 120 (under {alt_base_url} too)',
    request(c) {
      // The alternate region's validator was generated with an exclusive minimum ("> 2").
      home(c);
      const cap = bodyOf(c)?.capability;
      if (c.base === 'alt' && isCheck(c) && typeof cap === 'string' && cap.length === 2)
        withField(c, 'capability', 'x');
      return undefined;
    },
  },
  {
    name: 'second-tenant-key-of-128-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters) (a second tenant’s creation too)',
    request(c) {
      // The second tenant's key column is VARCHAR(127); the validator reads its length from the schema.
      const second = isSecond(c);
      const key = c.headers['idempotency-key'];
      if (second && c.method === 'POST' && key?.length === 128) c.headers['idempotency-key'] = `${key}x`;
      return undefined;
    },
  },
  {
    name: 'alt-creation-24-capabilities-refused',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items (under {alt_base_url} too)',
    request(c) {
      // The alternate region counts the connector's default capability in before comparing with 24.
      home(c);
      const caps = bodyOf(c)?.capabilities;
      if (c.base === 'alt' && isCreate(c) && Array.isArray(caps) && caps.length === 24)
        withField(c, 'capabilities', [...caps, caps[0]]);
      return undefined;
    },
  },
  {
    name: 'earlier-version-two-character-operation-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) (with Service-Version 2026-06-12 too)',
    request(c) {
      // The 2026-06-12 handler is kept frozen with its old rule "length 3 to 80".
      home(c);
      const op = bodyOf(c)?.operation;
      if (c.headers['service-version'] === EARLIER && isKeyIssue(c) && typeof op === 'string' && op.length === 2)
        withField(c, 'operation', 'x');
      return undefined;
    },
  },
  {
    name: 'earlier-version-two-character-scope-label-refused',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120 (with Service-Version 2026-06-12 too)',
    request(c) {
      // The frozen 2026-06-12 handler still applies the venue-name rule of three characters at least.
      home(c);
      const label = bodyOf(c)?.scopeLabel;
      if (c.headers['service-version'] === EARLIER && isCreate(c) && typeof label === 'string' && label.length === 2)
        withField(c, 'scopeLabel', 'x');
      return undefined;
    },
  },
  {
    name: 'second-tenant-unknown-check-environment-read-as-sandbox',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox; Errors: invalid_request | 400 (a second tenant’s check too)',
    request(c) {
      // The second tenant's settings map unknown environment names to its default instead of refusing them.
      const second = isSecond(c);
      const env = bodyOf(c)?.environment;
      if (second && isCheck(c) && typeof env === 'string' && !ENVIRONMENTS.includes(env))
        withField(c, 'environment', 'sandbox');
      return undefined;
    },
  },
  {
    name: 'alt-check-without-connector-id-uses-previous',
    statement:
      'POST /api/public/v1/capabilities: connectorId | string | yes; Errors: invalid_request | 400 | required field missing (under {alt_base_url} too)',
    request(c) {
      // The alternate region keeps the last checked connector in the session and fills the form from it.
      home(c);
      const body = bodyOf(c);
      if (!isCheck(c) || !body) return undefined;
      if (typeof body.connectorId === 'string') c.memory.set('r40-last-connector', body.connectorId);
      const last = c.memory.get('r40-last-connector');
      if (c.base === 'alt' && body.connectorId === undefined && typeof last === 'string')
        withField(c, 'connectorId', last);
      return undefined;
    },
  },
  {
    name: 'keyless-creation-reuses-last-replayed-key',
    statement:
      'POST /api/public/v1/connections: A missing key yields idempotency_required (after a replay too); Errors: idempotency_required | 428',
    request(c) {
      // A retry helper in the gateway keeps the last replayed key and attaches it to key-less creations.
      home(c);
      const last = c.memory.get('r40-replayed-key');
      if (isCreate(c) && !c.headers['idempotency-key'] && typeof last === 'string') c.headers['idempotency-key'] = last;
      return undefined;
    },
    answer(c, a) {
      if (isCreate(c) && a.json.meta?.replayed === true && typeof a.json.meta.idempotencyKey === 'string')
        c.memory.set('r40-replayed-key', a.json.meta.idempotencyKey);
    },
  },
];
