import type { ProxyAnswer, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { CURRENT, earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 51, part 2: limits at their edges, a key's characters, a filter per tenant, a default key at the edge. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
/** A whole failure answer for calls refused before the simulator sees them. */
const refusal = (message: string): ProxyAnswer => ({
  status: 400,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  json: {
    ok: false,
    error: { code: 'invalid_request', message },
    meta: { requestId: `req_r51_${Date.now().toString(36)}`, version: CURRENT, at: new Date().toISOString() },
  },
});

export const ROUND51_INPUTS: UnseenViolation[] = [
  {
    name: 'webhook-registration-key-of-128-characters-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters) (a 128-character key on a webhook registration)',
    request(c) {
      // The webhook service stores keys in a CHAR(127) column and its guard was written as length < 128.
      home(c);
      const key = c.headers['idempotency-key'];
      if (c.method === 'POST' && c.path === P('/webhooks') && key && key.length >= 128)
        return refusal('Idempotency-Key is too long.');
      return undefined;
    },
  },
  {
    name: 'key-issue-operation-of-two-characters-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) (an operation name of exactly 2 characters)',
    request(c) {
      // The operation check was written as length > 2 instead of >= 2.
      home(c);
      const op = bodyOf(c.body).operation;
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && typeof op === 'string' && op.length === 2)
        return refusal('operation must be at least 3 characters long.');
      return undefined;
    },
  },
  {
    name: 'second-tenant-provider-category-filter-ignored',
    statement:
      'GET /api/public/v1/providers: category | string | no | restricts to one category (a filtered read for the second tenant)',
    request(c) {
      // The second tenant is routed through a partner gateway whose query allow-list lacks category.
      const second = isSecond(c);
      if (second && c.method === 'GET' && c.path === P('/providers')) c.search.delete('category');
      return undefined;
    },
  },
  {
    name: 'alt-creation-scope-label-over-100-characters-refused',
    statement:
      'Limits: scopeLabel | length 2 to 120 (a creation with a 101 to 120 character label under {alt_base_url})',
    request(c) {
      // The alternate region's connections table was created with scope_label VARCHAR(100).
      home(c);
      const label = bodyOf(c.body).scopeLabel;
      if (c.base === 'alt' && isCreate(c) && typeof label === 'string' && label.length > 100 && label.length <= 120)
        return refusal('scopeLabel must be at most 100 characters long.');
      return undefined;
    },
  },
  {
    name: 'earlier-version-check-in-development-refused',
    statement:
      'Environment (enumeration): development, sandbox, pilot, production (a check for development sent for version 2026-06-12)',
    request(c) {
      // The 2026-06-12 handler still validates against the three-value enum it had before development was added.
      home(c);
      if (c.method === 'POST' && c.path === P('/capabilities') && earlier(c))
        if (bodyOf(c.body).environment === 'development')
          return refusal('environment must be one of sandbox, pilot, production.');
      return undefined;
    },
  },
  {
    name: 'alt-second-tenant-creation-without-key-gets-generated-key',
    statement:
      'POST /api/public/v1/connections: A missing key yields idempotency_required (the second tenant under {alt_base_url})',
    request(c) {
      // The alternate gateway's "request-id" plugin, enabled for the second tenant only, fills a missing Idempotency-Key.
      const second = isSecond(c);
      if (second && c.base === 'alt' && isCreate(c) && !c.headers['idempotency-key'])
        c.headers['idempotency-key'] = `gw-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
      return undefined;
    },
  },
  {
    name: 'creation-key-with-blanks-accepted-as-hyphens',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (letters, digits, dot, underscore, colon, hyphen) (a key with blanks)',
    request(c) {
      // The edge proxy "sanitises" header values by turning blanks into hyphens before the service validates them.
      home(c);
      const key = c.headers['idempotency-key'];
      if (isCreate(c) && key?.includes(' ')) c.headers['idempotency-key'] = key.replaceAll(' ', '-');
      return undefined;
    },
  },
];
