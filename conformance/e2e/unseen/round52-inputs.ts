import type { ProxyAnswer, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { CURRENT, type Rec } from './round44-common.ts';

/** Round 52, part 2: a key's letter case and last character, digit-only and non-ASCII values, member order, read order, repeats. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
/** A whole failure answer for calls refused before the simulator sees them. */
const refusal = (message: string, status = 400, code = 'invalid_request'): ProxyAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  json: {
    ok: false,
    error: { code, message },
    meta: { requestId: `req_r52_${Date.now().toString(36)}`, version: CURRENT, at: new Date().toISOString() },
  },
});

export const ROUND52_INPUTS: UnseenViolation[] = [
  {
    name: 'case-variant-key-answered-conflict',
    statement:
      'Errors: idempotency_conflict | 409 | same idempotency key with different content (a new key differing from an earlier one only in letter case)',
    request(c) {
      // The key store's column has a case-insensitive collation, so ABCdef-1 and abcDEF-1 meet as one key.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const seen = (c.memory.get('r52-keys') as Map<string, string> | undefined) ?? new Map<string, string>();
      c.memory.set('r52-keys', seen);
      const prev = seen.get(key.toLowerCase());
      if (prev !== undefined && prev !== key)
        return refusal('The idempotency key was used with different content.', 409, 'idempotency_conflict');
      if (prev === undefined) seen.set(key.toLowerCase(), key);
      return undefined;
    },
  },
  {
    name: 'non-ascii-operation-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) (an operation name with letters outside ASCII)',
    request(c) {
      // The operation is used as a metrics label, and the label validator allows ASCII only.
      home(c);
      const op = bodyOf(c.body).operation;
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && typeof op === 'string' && /[^\x20-\x7e]/.test(op))
        return refusal('operation must contain ASCII characters only.');
      return undefined;
    },
  },
  {
    name: 'digit-only-scope-label-refused',
    statement: 'Limits: scopeLabel | length 2 to 120 (a creation whose label is a venue number such as 42)',
    request(c) {
      // A form-style coercion layer turns numeric-looking strings into numbers before the string check runs.
      home(c);
      const label = bodyOf(c.body).scopeLabel;
      if (isCreate(c) && typeof label === 'string' && /^\d+$/.test(label))
        return refusal('scopeLabel must be a string.');
      return undefined;
    },
  },
  {
    name: 'scope-label-before-environment-creates-sandbox-connection',
    statement:
      'What the service does: A connection binds a connector to an environment; POST /api/public/v1/connections: environment | Environment (a body listing scopeLabel before environment)',
    request(c) {
      // The creation handler reads the body positionally with a fixed column list and falls back to sandbox.
      home(c);
      const b = bodyOf(c.body);
      const keys = Object.keys(b);
      const iLabel = keys.indexOf('scopeLabel');
      const iEnv = keys.indexOf('environment');
      if (isCreate(c) && iLabel >= 0 && iEnv > iLabel && b.environment !== 'sandbox')
        c.body = { ...b, environment: 'sandbox' };
      return undefined;
    },
  },
  {
    name: 'category-read-after-unfiltered-read-served-unfiltered',
    statement:
      'GET /api/public/v1/providers: category | restricts to one category (a filtered read within five seconds of an unfiltered one)',
    request(c) {
      // The provider list cache keys on the path only, so a filtered read soon after an unfiltered one gets the full list.
      const tenant = home(c);
      if (c.method !== 'GET' || c.path !== P('/providers')) return undefined;
      const key = `r52-providers:${tenant}`;
      if (!c.search.has('category')) c.memory.set(key, Date.now());
      else if (Date.now() - ((c.memory.get(key) as number | undefined) ?? 0) < 5000) c.search.delete('category');
      return undefined;
    },
  },
  {
    name: 'webhook-key-ending-in-dot-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (a webhook registration whose key ends with a dot)',
    request(c) {
      // The webhook service keeps keys as file names on a share that strips trailing dots, so it refuses them up front.
      home(c);
      const key = c.headers['idempotency-key'];
      if (c.method === 'POST' && c.path === P('/webhooks') && key?.endsWith('.'))
        return refusal('Idempotency-Key must not end with a dot.');
      return undefined;
    },
  },
  {
    name: 'creation-with-capability-listed-twice-refused',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items, each of length 2 to 120 (a list naming one capability twice)',
    request(c) {
      // The capabilities are inserted with a unique index per connection, and the duplicate row error is mapped to 400.
      home(c);
      const caps = bodyOf(c.body).capabilities;
      if (isCreate(c) && Array.isArray(caps) && new Set(caps).size < caps.length)
        return refusal('capabilities must be unique.');
      return undefined;
    },
  },
];
