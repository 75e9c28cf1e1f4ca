import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 45, part 2: requests accepted or refused wrongly, each at one edge or in one place. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' ? (b as Rec) : {});
/** Creations whose key the alternate region rewrote (per call). */
const rekeyed = new WeakSet<ProxyCall>();

export const ROUND45_INPUTS: UnseenViolation[] = [
  {
    name: 'alt-changed-content-with-main-key-creates',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict (a key first used at {base_url}, reused with other content at {alt_base_url})',
    request(c) {
      // The alternate region namespaces keys it has not seen with identical content, so the changed body creates.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const fp = JSON.stringify(c.body ?? null);
      const seen = c.memory.get(`r45-x-${key}`) as { base: string; fp: string } | undefined;
      if (!seen) c.memory.set(`r45-x-${key}`, { base: c.base, fp });
      else if (c.base === 'alt' && seen.base === 'main' && seen.fp !== fp) {
        c.headers['idempotency-key'] = `${key.slice(0, 120)}.alt`;
        rekeyed.add(c);
      }
      return undefined;
    },
    answer(c, a) {
      // The caller is shown its own key, so nothing hints at the namespacing.
      const key = c.headers['idempotency-key'];
      if (rekeyed.has(c) && key && a.json.meta) a.json.meta.idempotencyKey = key.replace(/\.alt$/, '');
    },
  },
  {
    name: 'second-tenant-check-connector-id-of-120-refused',
    statement:
      'Limits: connectorId, capability (checks and connection creation) | length 2 to 120 (a second tenant’s check with a connectorId of 101 to 120)',
    answer(c, a) {
      // The partner decision cache keys on a varchar(100) column and refuses longer identifiers.
      const second = isSecond(c);
      const id = bodyOf(c.body).connectorId;
      if (second && c.method === 'POST' && c.path === P('/capabilities') && typeof id === 'string' && id.length > 100)
        if (id.length <= 120) refuse(a, 400, 'invalid_request', 'connectorId is too long.');
    },
  },
  {
    name: 'earlier-version-24-capabilities-refused',
    statement:
      'Limits: capabilities in connection creation | 1 to 24 items (exactly 24 under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 validator compares the item count with < 24.
      home(c);
      const caps = bodyOf(c.body).capabilities;
      if (earlier(c) && isCreate(c) && Array.isArray(caps) && caps.length === 24)
        refuse(a, 400, 'invalid_request', 'capabilities: too many items.');
    },
  },
  {
    name: 'long-query-answered-414',
    statement:
      'Endpoints: All authenticated endpoints may answer with the statuses 400, 401, 403, 404, 409, 428, 429, 500 (a query string over 300 characters)',
    answer(c, a) {
      // The edge proxy's URI buffer is 300 bytes; it answers 414 with the service's envelope.
      home(c);
      if (c.method === 'GET' && c.search.toString().length > 300 && c.path !== P('/stream'))
        refuse(a, 414, 'invalid_request', 'Request URI too long.');
    },
  },
  {
    name: 'alt-two-character-scope-label-refused',
    statement: 'Limits: scopeLabel | length 2 to 120 (a scopeLabel of exactly 2 under {alt_base_url})',
    answer(c, a) {
      // The alternate region's form library counts length with > 2 instead of >= 2.
      home(c);
      const label = bodyOf(c.body).scopeLabel;
      if (c.base === 'alt' && isCreate(c) && typeof label === 'string' && label.length === 2)
        refuse(a, 400, 'invalid_request', 'scopeLabel is too short.');
    },
  },
  {
    name: 'unparsable-body-code-malformed-json',
    statement:
      'Failure envelope: error.code | one of the codes in the Errors part (a POST whose body is not JSON, e.g. with a byte order mark)',
    answer(c, a) {
      // The body parser's own error code is passed through instead of invalid_request.
      home(c);
      if (c.method === 'POST' && c.body === undefined && a.status === 400 && a.json.error)
        a.json.error.code = 'malformed_json';
    },
  },
  {
    name: 'second-tenant-operation-of-80-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) (a second tenant’s operation of 72 to 80)',
    answer(c, a) {
      // Partner keys embed the tenant in the operation column, leaving 72 characters for the name.
      const second = isSecond(c);
      const op = bodyOf(c.body).operation;
      if (second && c.method === 'POST' && c.path === P('/idempotency-keys') && typeof op === 'string')
        if (op.length > 72 && op.length <= 80) refuse(a, 400, 'invalid_request', 'operation is too long.');
    },
  },
  {
    name: 'alt-key-with-dot-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (letters, digits, dot, ...) (a key with a dot under {alt_base_url})',
    answer(c, a) {
      // The alternate gateway's header filter treats dots as path traversal.
      home(c);
      const key = c.headers['idempotency-key'];
      if (c.base === 'alt' && c.method === 'POST' && key?.includes('.') && a.status === 200)
        refuse(a, 400, 'invalid_request', 'Idempotency-Key has an invalid format.');
    },
  },
];
