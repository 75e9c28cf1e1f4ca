import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { altSecond, isSecond, type Rec } from './round44-common.ts';

/** Round 46, part 2: requests accepted or refused wrongly, each at one edge or in one place. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' ? (b as Rec) : {});
const isCheck = (method: string, path: string) => method === 'POST' && path === P('/capabilities');

export const ROUND46_INPUTS: UnseenViolation[] = [
  {
    name: 'trailing-slash-creation-skips-key-check',
    statement:
      'POST /api/public/v1/connections: A missing key yields idempotency_required (the path written with a trailing slash)',
    request(c) {
      // The key middleware is mounted on the exact path; the router's strict:false still reaches the handler.
      home(c);
      if (c.method === 'POST' && c.path === P('/connections/') && !c.headers['idempotency-key'])
        c.headers['idempotency-key'] = `auto-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      return undefined;
    },
  },
  {
    name: 'numeric-only-key-refused',
    statement: 'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (a key made of digits only)',
    answer(c, a) {
      // The header parser coerces digit-only values to numbers and the schema then expects a string.
      home(c);
      const key = c.headers['idempotency-key'];
      if (c.method === 'POST' && key && /^\d{8,128}$/.test(key) && a.status === 200)
        refuse(a, 400, 'invalid_request', 'Idempotency-Key must be a string.');
    },
  },
  {
    name: 'alt-key-with-leading-hyphen-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (a key starting with a hyphen under {alt_base_url})',
    answer(c, a) {
      // The alternate gateway forwards the key to a CLI-based signer, which reads "-..." as an option.
      home(c);
      const key = c.headers['idempotency-key'];
      if (c.base === 'alt' && c.method === 'POST' && key?.startsWith('-') && a.status === 200)
        refuse(a, 400, 'invalid_request', 'Idempotency-Key has an invalid format.');
    },
  },
  {
    name: 'second-tenant-operation-with-digit-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) (a second tenant’s operation containing a digit)',
    answer(c, a) {
      // Partner tenants validate operations against a letters-and-dots allowlist of their old key service.
      const second = isSecond(c);
      const op = bodyOf(c.body).operation;
      if (second && c.method === 'POST' && c.path === P('/idempotency-keys') && typeof op === 'string')
        if (/\d/.test(op) && a.status === 200) refuse(a, 400, 'invalid_request', 'operation has an invalid format.');
    },
  },
  {
    name: 'duplicate-capability-items-refused',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items, each of length 2 to 120 (the same capability listed twice)',
    answer(c, a) {
      // The ORM's unique index on (connection, capability) fails and is mapped to invalid_request.
      home(c);
      const caps = bodyOf(c.body).capabilities;
      if (isCreate(c) && Array.isArray(caps) && new Set(caps).size < caps.length && a.status === 200)
        refuse(a, 400, 'invalid_request', 'capabilities must be unique.');
    },
  },
  {
    name: 'second-tenant-development-creation-refused',
    statement:
      'Environment (enumeration): development, sandbox, pilot, production (a second tenant’s creation in development)',
    answer(c, a) {
      // The partner onboarding table seeded only sandbox, pilot and production rows for new tenants.
      const second = isSecond(c);
      if (second && isCreate(c) && bodyOf(c.body).environment === 'development' && a.status === 200)
        refuse(a, 400, 'invalid_request', 'environment must be one of sandbox, pilot, production.');
    },
  },
  {
    name: 'alt-second-tenant-webhook-url-with-port-refused',
    statement:
      'POST /api/public/v1/webhooks: Body: url (string, the receiver address) (a second tenant’s receiver with an explicit port under {alt_base_url})',
    answer(c, a) {
      // The partner region's URL allowlist regex has no group for a port.
      const hit = altSecond(c);
      const url = bodyOf(c.body).url;
      if (hit && c.method === 'POST' && c.path === P('/webhooks') && typeof url === 'string' && a.status === 200)
        if (/^https?:\/\/[^/]+:\d+/.test(url)) refuse(a, 400, 'invalid_request', 'url is not an allowed address.');
    },
  },
  {
    name: 'alt-second-tenant-dotted-capability-check-refused',
    statement:
      'POST /api/public/v1/capabilities: capability | string | yes | length 2 to 120 (a second tenant’s check of a dotted capability under {alt_base_url})',
    answer(c, a) {
      // The partner region validates capability names with ^\w+$, written before catalog names gained dots.
      const hit = altSecond(c);
      const cap = bodyOf(c.body).capability;
      if (hit && isCheck(c.method, c.path) && typeof cap === 'string' && cap.includes('.') && a.status === 200)
        refuse(a, 400, 'invalid_request', 'capability has an invalid format.');
    },
  },
];
