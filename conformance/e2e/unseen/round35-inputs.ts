import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 35 of the unseen violations, part 2: inputs — venue names sent as arrays joined, key operations
 * sent as arrays joined, nested capability lists flattened, capability maps read as lists, hexadecimal
 * cursors, keys with inner spaces under the alternate address, a second tenant's one-character
 * operations, and earlier-version connection lists served without a token.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isKeyIssue = (c: ProxyCall) => c.method === 'POST' && c.path === P('/idempotency-keys');
const allStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
const EARLIER = '2026-06-12';

export const ROUND35_INPUTS: UnseenViolation[] = [
  {
    name: 'creation-scope-label-array-joined',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120; Errors: invalid_request | 400 | wrong data type',
    request(c) {
      // A form-binding layer written for multi-value fields joins a list into one text before validation.
      home(c);
      const b = body(c);
      if (isCreate(c) && b && allStrings(b.scopeLabel)) c.body = { ...b, scopeLabel: b.scopeLabel.join(' ') };
      return undefined;
    },
  },
  {
    name: 'key-issue-operation-array-joined',
    statement:
      'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required, length 2 to 80); Errors: invalid_request | 400 | wrong data type',
    request(c) {
      // The operation name is built "helpfully" from path segments when a list is given.
      home(c);
      const b = body(c);
      if (isKeyIssue(c) && b && allStrings(b.operation)) c.body = { ...b, operation: b.operation.join('.') };
      return undefined;
    },
  },
  {
    name: 'creation-capability-items-nested-arrays-flattened',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items, each of length 2 to 120 (an item that is itself a list is no string)',
    request(c) {
      // The request normaliser calls flat() on every array field before the schema sees it.
      home(c);
      const b = body(c);
      if (isCreate(c) && b && Array.isArray(b.capabilities) && b.capabilities.some(Array.isArray))
        c.body = { ...b, capabilities: b.capabilities.flat(Number.POSITIVE_INFINITY) };
      return undefined;
    },
  },
  {
    name: 'creation-capabilities-object-keys-accepted',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string; Errors: invalid_request | 400 | wrong data type (an object is no array)',
    request(c) {
      // A compatibility shim for an old client that sent {"capability": true} maps turns the keys into a list.
      home(c);
      const b = body(c);
      const caps = b?.capabilities;
      if (!isCreate(c) || !b || !caps || typeof caps !== 'object' || Array.isArray(caps)) return undefined;
      c.body = { ...b, capabilities: Object.keys(caps).filter((k) => (caps as Rec)[k]) };
      return undefined;
    },
  },
  {
    name: 'cursor-hex-literal-accepted',
    statement: 'GET /api/public/v1/stream: cursor | query | integer, minimum 0 ("0x1" is no integer)',
    request(c) {
      // The cursor goes through Number(), which reads 0x, 0o and 0b literals, and only then through the check.
      const cursor = c.search.get('cursor');
      if (c.method !== 'GET' || c.path !== P('/stream') || !cursor || !/^0[xob][0-9a-f]+$/i.test(cursor))
        return undefined;
      const n = Number(cursor);
      if (Number.isSafeInteger(n)) c.search.set('cursor', String(n));
      return undefined;
    },
  },
  {
    name: 'alt-key-inner-spaces-removed',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (a key with inner spaces under {alt_base_url} too)',
    request(c) {
      // The alternate gateway collapses whitespace in every header value, inner spaces included.
      home(c);
      const key = c.headers['idempotency-key'];
      if (c.base === 'alt' && c.method === 'POST' && key && / /.test(key.trim()))
        c.headers['idempotency-key'] = key.replace(/\s+/g, '');
      return undefined;
    },
  },
  {
    name: 'second-tenant-one-character-operation-accepted',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) (a second tenant’s call too)',
    request(c) {
      // The second tenant's region runs a build whose schema only says "non-empty"; it pads short names.
      const second = isSecond(c);
      const b = body(c);
      if (second && isKeyIssue(c) && b && typeof b.operation === 'string' && b.operation.length === 1)
        c.body = { ...b, operation: `${b.operation}.default` };
      return undefined;
    },
  },
  {
    name: 'earlier-version-list-served-without-token',
    statement:
      'Endpoints: GET /api/public/v1/connections | yes; Errors: unauthorized | 401 | token missing (with Service-Version 2026-06-12 too)',
    request(c) {
      // The 2026-06-12 route table was copied before the auth middleware was added; a session cache fills in.
      home(c);
      const good = c.memory.get('r35-good-token') as string | undefined;
      if (c.method === 'GET' && c.path === P('/connections') && c.headers['service-version'] === EARLIER)
        if (!c.headers.authorization && good) c.headers.authorization = good;
      return undefined;
    },
    answer(c, a) {
      const auth = c.headers.authorization;
      if (auth && a.status !== 401 && a.status !== 403) c.memory.set('r35-good-token', auth);
    },
  },
];
