import { randomUUID } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 43 of the unseen violations, part 2: inputs — a second tenant's creations refused at the
 * alternate address, or accepted there without a key; long keys of a second tenant refused, a second
 * tenant's pilot checks refused; alternate creations with over twenty capabilities, alternate long
 * operations and alternate resumptions from cursor 0 refused; earlier long labels refused.
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

export const ROUND43_INPUTS: UnseenViolation[] = [
  {
    name: 'alt-second-tenant-creation-forbidden',
    statement:
      'What the service does: A tenant creates connections; the same interface is also offered under {alt_base_url} (a second tenant’s creation there)',
    answer(c, a) {
      // The alternate region's tenant release list was copied before the access's second tenant was released.
      const second = isSecond(c);
      if (second && c.base === 'alt' && isCreate(c) && a.status === 200)
        refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
  {
    name: 'alt-second-tenant-keyless-creation-accepted',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required; A missing key yields idempotency_required (a second tenant under {alt_base_url})',
    request(c) {
      // The alternate region's partner gateway "helpfully" mints a key when a partner forgets one.
      const second = isSecond(c);
      if (second && c.base === 'alt' && isCreate(c) && !c.headers['idempotency-key'])
        c.headers['idempotency-key'] = `gw-${randomUUID()}`;
      return undefined;
    },
  },
  {
    name: 'second-tenant-long-key-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters) (a second tenant’s key over 64 characters)',
    request(c) {
      // The second tenant's key table was created with a VARCHAR(64) column.
      const second = isSecond(c);
      const key = c.headers['idempotency-key'];
      if (second && c.method === 'POST' && key && key.length > 64) c.headers['idempotency-key'] = `${key}/`;
      return undefined;
    },
  },
  {
    name: 'second-tenant-pilot-check-refused',
    statement:
      'POST /api/public/v1/capabilities: environment | no | Environment (development, sandbox, pilot, production) (a second tenant’s pilot check)',
    request(c) {
      // The second tenant's environment list was seeded without pilot.
      const second = isSecond(c);
      if (second && c.method === 'POST' && c.path === P('/capabilities') && bodyOf(c)?.environment === 'pilot')
        withField(c, 'environment', '');
      return undefined;
    },
  },
  {
    name: 'alt-creation-over-twenty-capabilities-refused',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items (21 to 24 under {alt_base_url} too)',
    request(c) {
      // The alternate region's validator still carries the old limit of twenty capabilities.
      home(c);
      const caps = bodyOf(c)?.capabilities;
      if (c.base === 'alt' && isCreate(c) && Array.isArray(caps) && caps.length > 20 && caps.length <= 24)
        withField(c, 'capabilities', []);
      return undefined;
    },
  },
  {
    name: 'alt-long-operation-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) (61 to 80 under {alt_base_url} too)',
    request(c) {
      // The alternate region's key service stores operation in a 60-character column.
      home(c);
      const op = bodyOf(c)?.operation;
      if (c.base === 'alt' && c.method === 'POST' && c.path === P('/idempotency-keys'))
        if (typeof op === 'string' && op.length > 60 && op.length <= 80) withField(c, 'operation', '');
      return undefined;
    },
  },
  {
    name: 'alt-stream-cursor-zero-refused',
    statement: 'GET /api/public/v1/stream: cursor | query | integer, minimum 0 (cursor=0 under {alt_base_url} too)',
    request(c) {
      // The alternate region's query parser treats 0 as "missing" and its schema then fails the empty value.
      home(c);
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/stream') || c.search.get('cursor') !== '0')
        return undefined;
      const requestId = `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      return {
        status: 400,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
        json: {
          ok: false,
          error: { code: 'invalid_request', message: 'The request is incomplete or unsuitable.', detail: 'cursor' },
          meta: { requestId, version: '2026-07-01', at: new Date().toISOString() },
        },
      };
    },
  },
  {
    name: 'earlier-version-long-scope-label-refused',
    statement:
      'POST /api/public/v1/connections: scopeLabel | length 2 to 120 (101 to 120 with Service-Version 2026-06-12 too)',
    request(c) {
      // The 2026-06-12 schema kept the original 100-character limit of the venue name.
      home(c);
      const label = bodyOf(c)?.scopeLabel;
      if (c.headers['service-version'] === EARLIER && isCreate(c) && typeof label === 'string')
        if (label.length > 100 && label.length <= 120) withField(c, 'scopeLabel', '');
      return undefined;
    },
  },
];
