import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 42 of the unseen violations, part 2: inputs — issued keys refused at the alternate address, a
 * replay at the other address creating again, alternate connector reads refusing two filters, earlier
 * checks without environment refused, a second tenant's underscored keys refused, a second tenant's
 * labels with digits refused, alternate JSON with a charset refused, and alternate eight-character keys refused.
 */
type Rec = Record<string, any>;
const EARLIER = '2026-06-12';
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const bodyOf = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** Sends a copy with one field changed, so the simulator's own refusal (headers, meta) answers. */
const withField = (c: ProxyCall, field: string, value: unknown) => {
  c.body = { ...bodyOf(c), [field]: value };
};
/** Makes the key break the pattern, so the simulator's own invalid_request answers. */
const spoilKey = (c: ProxyCall) => {
  c.headers['idempotency-key'] = `${c.headers['idempotency-key']}/`;
};
const ISSUED = 'r42-issued-keys';

export const ROUND42_INPUTS: UnseenViolation[] = [
  {
    name: 'issued-key-refused-at-alt',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$; POST /api/public/v1/idempotency-keys: data: idempotencyKey (a key issued there, used under {alt_base_url})',
    request(c) {
      // The alternate region checks keys against its own issued-key table, which the main region fills alone.
      home(c);
      const issued = (c.memory.get(ISSUED) ?? []) as string[];
      const key = c.headers['idempotency-key'];
      if (c.base === 'alt' && c.method === 'POST' && key && issued.includes(key)) spoilKey(c);
      return undefined;
    },
    answer(c, a) {
      const key = a.json.data?.idempotencyKey;
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && typeof key === 'string' && c.base === 'main')
        c.memory.set(ISSUED, [...((c.memory.get(ISSUED) ?? []) as string[]), key]);
    },
  },
  {
    name: 'cross-address-replay-creates-again',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true (the interface is also offered under {alt_base_url})',
    request(c) {
      // Each address has its own idempotency store, so a retry that fails over to the other address creates anew.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const seen = (c.memory.get('r42-key-base') ?? {}) as Record<string, string>;
      if (!seen[key]) c.memory.set('r42-key-base', { ...seen, [key]: c.base });
      else if (seen[key] !== c.base) c.headers['idempotency-key'] = `${key}.${c.base}`;
      return undefined;
    },
    answer(c, a) {
      const key = c.headers['idempotency-key'];
      if (isCreate(c) && key?.endsWith(`.${c.base}`) && a.json.meta?.idempotencyKey === key)
        a.json.meta.idempotencyKey = key.slice(0, -`.${c.base}`.length);
    },
  },
  {
    name: 'alt-connectors-two-filters-refused',
    statement:
      'GET /api/public/v1/connectors: Query parameters capability, providerId, category | Required: no (any of them together, under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's query router allows one filter per request.
      home(c);
      const n = ['capability', 'providerId', 'category'].filter((k) => c.search.has(k)).length;
      if (c.base === 'alt' && c.method === 'GET' && c.path === P('/connectors') && n >= 2 && a.status === 200)
        refuse(a, 400, 'invalid_request', 'The request is incomplete or unsuitable.', 'Only one filter is allowed.');
    },
  },
  {
    name: 'earlier-version-check-without-environment-refused',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox (with Service-Version 2026-06-12 too)',
    request(c) {
      // The frozen 2026-06-12 check schema lists environment among the required fields.
      home(c);
      const body = bodyOf(c);
      if (c.headers['service-version'] === EARLIER && c.method === 'POST' && c.path === P('/capabilities'))
        if (body && body.environment === undefined) withField(c, 'environment', '');
      return undefined;
    },
  },
  {
    name: 'second-tenant-key-with-underscore-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (letters, digits, dot, underscore, colon, hyphen) (a second tenant’s calls too)',
    request(c) {
      // The second tenant's gateway validates keys with a DNS-label rule that has no underscore.
      const second = isSecond(c);
      const key = c.headers['idempotency-key'];
      if (second && c.method === 'POST' && key?.includes('_')) spoilKey(c);
      return undefined;
    },
  },
  {
    name: 'second-tenant-scope-label-with-digit-refused',
    statement:
      'POST /api/public/v1/connections: scopeLabel | length 2 to 120 (a second tenant’s label with a digit too)',
    request(c) {
      // The second tenant's venue field reuses a person-name validator that forbids digits.
      const second = isSecond(c);
      const label = bodyOf(c)?.scopeLabel;
      if (second && isCreate(c) && typeof label === 'string' && /\d/.test(label)) withField(c, 'scopeLabel', '');
      return undefined;
    },
  },
  {
    name: 'alt-json-with-charset-refused',
    statement:
      'POST /api/public/v1/webhooks: Headers: Idempotency-Key, content type JSON; Body (JSON) (application/json; charset=utf-8 under {alt_base_url} too)',
    request(c) {
      // The alternate region's body parser compares the content type as an exact string.
      home(c);
      const type = c.headers['content-type'] ?? '';
      if (c.base === 'alt' && c.method === 'POST' && /^application\/json\s*;\s*charset=/i.test(type)) c.body = {};
      return undefined;
    },
  },
  {
    name: 'alt-eight-character-key-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters) (an eight-character key under {alt_base_url} too)',
    request(c) {
      // The alternate region's key column has a CHECK of at least twelve characters.
      home(c);
      const key = c.headers['idempotency-key'];
      if (c.base === 'alt' && c.method === 'POST' && key && key.length >= 8 && key.length < 12) spoilKey(c);
      return undefined;
    },
  },
];
