import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 37 of the unseen violations, part 2: inputs — connector ids with a trailing slash resolved,
 * checked capabilities case-folded, environments given as an ordinal number, capability items trimmed,
 * alternate over-long capability items cut, a second tenant's over-long operations cut, earlier over-long
 * checked connector ids cut, and percent-encoded idempotency keys decoded into the pattern.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const EARLIER = '2026-06-12';
const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export const ROUND37_INPUTS: UnseenViolation[] = [
  {
    name: 'creation-connector-id-trailing-slash-stripped',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier (a connection for "<connector>/" names no connector)',
    request(c) {
      // A path-style normaliser meant for URLs strips trailing slashes of every identifier field.
      home(c);
      const b = body(c);
      const id = b?.connectorId;
      if (isCreate(c) && b && typeof id === 'string' && /\/+$/.test(id) && id.replace(/\/+$/, '').length >= 2)
        c.body = { ...b, connectorId: id.replace(/\/+$/, '') };
      return undefined;
    },
  },
  {
    name: 'check-capability-matched-case-insensitively',
    statement:
      'POST /api/public/v1/capabilities: capability | string | yes; A capability check returns a decision (for "Orders.Read", not the one of "orders.read")',
    request(c) {
      // The capability lookup of checks runs on a column with a case-insensitive collation.
      home(c);
      const b = body(c);
      const cap = b?.capability;
      if (isCheck(c) && b && typeof cap === 'string' && cap !== cap.toLowerCase())
        c.body = { ...b, capability: cap.toLowerCase() };
      return undefined;
    },
  },
  {
    name: 'creation-environment-ordinal-accepted',
    statement:
      'POST /api/public/v1/connections: environment | string | Environment; Errors: invalid_request | 400 | wrong data type (3 is no environment)',
    request(c) {
      // The ORM maps enumerations by ordinal and accepts the stored number as well as the name.
      home(c);
      const b = body(c);
      const env = b?.environment;
      if (isCreate(c) && b && typeof env === 'number' && ENVIRONMENTS[env] !== undefined)
        c.body = { ...b, environment: ENVIRONMENTS[env] };
      return undefined;
    },
  },
  {
    name: 'creation-capability-items-trimmed',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | each of length 2 to 120 (" orders.read " names no capability)',
    request(c) {
      // A global sanitiser trims the strings of arrays too, so padded capability names become known ones.
      home(c);
      const b = body(c);
      const caps = b?.capabilities;
      if (!isCreate(c) || !b || !Array.isArray(caps)) return undefined;
      const trimmed = caps.map((x) => (typeof x === 'string' && x.trim().length >= 2 ? x.trim() : x));
      if (trimmed.some((x, i) => x !== caps[i])) c.body = { ...b, capabilities: trimmed };
      return undefined;
    },
  },
  {
    name: 'alt-creation-capability-item-over-120-cut',
    statement:
      'Limits: capabilities in connection creation | each length 2 to 120 (under {alt_base_url} a 121-character item is refused too)',
    request(c) {
      // The alternate region stores capability names in a VARCHAR(120) column with silent truncation.
      home(c);
      const b = body(c);
      const caps = b?.capabilities;
      if (c.base !== 'alt' || !isCreate(c) || !b || !Array.isArray(caps)) return undefined;
      if (caps.some((x) => typeof x === 'string' && x.length > 120))
        c.body = { ...b, capabilities: caps.map((x) => (typeof x === 'string' ? x.slice(0, 120) : x)) };
      return undefined;
    },
  },
  {
    name: 'second-tenant-operation-over-80-cut',
    statement:
      'Limits: operation in idempotency key creation | length 2 to 80 (a second tenant’s 81 characters are refused)',
    request(c) {
      // The second tenant's key service shortens long operation names for its log columns instead of refusing.
      const second = isSecond(c);
      const b = body(c);
      const op = b?.operation;
      if (second && c.method === 'POST' && c.path === P('/idempotency-keys') && b && typeof op === 'string')
        if (op.length > 80) c.body = { ...b, operation: op.slice(0, 80) };
      return undefined;
    },
  },
  {
    name: 'earlier-version-check-connector-id-over-120-cut',
    statement:
      'Limits: connectorId, capability (checks and connection creation) | length 2 to 120 (with Service-Version 2026-06-12 a 121-character connectorId is refused)',
    request(c) {
      // The 2026-06-12 adapter copies the id into a fixed-width field before the validator sees it.
      home(c);
      const b = body(c);
      const id = b?.connectorId;
      if (isCheck(c) && b && c.headers['service-version'] === EARLIER && typeof id === 'string' && id.length > 120)
        c.body = { ...b, connectorId: id.slice(0, 120) };
      return undefined;
    },
  },
  {
    name: 'idempotency-key-percent-decoded',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (a key with "%41" is refused, not read as "A")',
    request(c) {
      // The gateway URL-decodes header values as if they were query parameters.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!key?.includes('%')) return undefined;
      let decoded = key;
      try {
        decoded = decodeURIComponent(key);
      } catch {
        return undefined;
      }
      if (decoded !== key && /^[\x21-\x7e]+$/.test(decoded)) c.headers['idempotency-key'] = decoded;
      return undefined;
    },
  },
];
