import type { UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 19 of the unseen violations, part 3: inputs a deployment should refuse but takes — keys with
 * base64 characters mapped into the pattern, a numeric scopeLabel turned into text, capability objects
 * read by their id, a check's connectorId given as an array, an operation object stringified, a relative
 * webhook url, and scope labels over 120 characters under the alternate address.
 */
type Rec = Record<string, any>;
const body = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : undefined);

export const ROUND19_INPUTS: UnseenViolation[] = [
  {
    name: 'base64-key-characters-mapped-into-pattern',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters of letters, digits, dot, underscore, colon, hyphen)',
    request(c) {
      // Keys are normalised from base64 to base64url before the pattern check, so "+", "/" and "=" pass.
      const k = c.headers['idempotency-key'];
      if (c.method !== 'POST' || !k || !/[+/=]/.test(k)) return undefined;
      c.headers['idempotency-key'] = k.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '.');
      return undefined;
    },
  },
  {
    name: 'numeric-scope-label-stringified',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: scopeLabel | string | length 2 to 120',
    request(c) {
      // The body is read through a form-style coercer that turns numbers into text.
      const b = body(c.body);
      if (!isCreate(c) || !b || typeof b.scopeLabel !== 'number') return undefined;
      c.body = { ...b, scopeLabel: String(b.scopeLabel) };
      return undefined;
    },
  },
  {
    name: 'capability-objects-read-by-id',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items, each of length 2 to 120',
    request(c) {
      // The body parser accepts the shape of the answer's capability entries too, for "convenience".
      const b = body(c.body);
      if (!isCreate(c) || !b || !Array.isArray(b.capabilities)) return undefined;
      if (!b.capabilities.some((x: unknown) => x && typeof x === 'object')) return undefined;
      const ids = b.capabilities.map((x: unknown) => {
        const o = body(x);
        return o ? (o.capability ?? o.id ?? x) : x;
      });
      c.body = { ...b, capabilities: ids };
      return undefined;
    },
  },
  {
    name: 'check-connector-id-array-takes-first',
    statement: 'POST /api/public/v1/capabilities: Body (JSON): connectorId | string | yes | length 2 to 120',
    request(c) {
      // A query-string style parser lets repeated fields become arrays and keeps the first value.
      const b = body(c.body);
      if (c.method !== 'POST' || c.path !== P('/capabilities') || !b || !Array.isArray(b.connectorId)) return undefined;
      c.body = { ...b, connectorId: b.connectorId[0] };
      return undefined;
    },
  },
  {
    name: 'operation-object-stringified',
    statement: 'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required, length 2 to 80)',
    request(c) {
      // The handler builds the key with a template string, so any object becomes "[object Object]".
      const b = body(c.body);
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || !b) return undefined;
      if (b.operation === null || typeof b.operation !== 'object') return undefined;
      c.body = { ...b, operation: String(b.operation) };
      return undefined;
    },
  },
  {
    name: 'relative-webhook-url-accepted',
    statement:
      'POST /api/public/v1/webhooks: Body: url (string, the receiver address) — invalid_request | 400 | request incomplete or unsuitable',
    request(c) {
      // The url is only checked to be a string; deliveries to it fail later, in the background.
      const b = body(c.body);
      if (c.method !== 'POST' || c.path !== P('/webhooks') || !b || typeof b.url !== 'string') return undefined;
      if (/^https?:\/\/[^/]/i.test(b.url)) return undefined;
      c.memory.set('r19-relative-url', b.url);
      c.body = { ...b, url: `http://127.0.0.1:9/${b.url.replace(/^\/+/, '')}` };
      return undefined;
    },
    answer(c, a) {
      const url = c.memory.get('r19-relative-url');
      if (c.method !== 'POST' || c.path !== P('/webhooks') || url === undefined || a.status !== 200) return;
      c.memory.delete('r19-relative-url');
      if (a.json.data && typeof a.json.data === 'object') a.json.data.url = url;
    },
  },
  {
    name: 'alt-scope-label-over-120-accepted',
    statement: 'Limits: scopeLabel | length 2 to 120 (the same interface under {alt_base_url})',
    request(c) {
      // The alternate host still runs the old validator (up to 255) and the column silently cuts to 120.
      const b = body(c.body);
      if (c.base !== 'alt' || !isCreate(c) || !b || typeof b.scopeLabel !== 'string') return undefined;
      if (b.scopeLabel.length <= 120 || b.scopeLabel.length > 255) return undefined;
      c.body = { ...b, scopeLabel: b.scopeLabel.slice(0, 120) };
      return undefined;
    },
  },
];
