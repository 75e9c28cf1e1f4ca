import { randomBytes } from 'node:crypto';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 22 of the unseen violations, part 2: inputs — a check naming the default environment sandbox
 * explicitly refused, scope labels outside plain ASCII word characters refused, the alternate address
 * not reading the Idempotency-Key header on creations, and the second tenant's not_found answered as
 * forbidden.
 */
type Rec = Record<string, any>;
/** A failure envelope made up by the deployment itself (the proxy answers before the simulator). */
const failure = (c: ProxyCall, status: number, code: string, message: string, detail?: string): ProxyAnswer => {
  const requestId = `req_${randomBytes(8).toString('hex')}`;
  const key = c.headers['idempotency-key'];
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
    json: {
      ok: false,
      error: { code, message, ...(detail ? { detail } : {}) },
      meta: {
        requestId,
        version: '2026-07-01',
        at: new Date().toISOString(),
        ...(key ? { idempotencyKey: key } : {}),
      },
    },
  };
};

export const ROUND22_INPUTS: UnseenViolation[] = [
  {
    name: 'explicit-sandbox-check-refused',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox — Environment: development, sandbox, pilot, production',
    request(c) {
      // The validator treats "sandbox" as the internal default marker and refuses it when a client
      // names it explicitly; omitting the field or naming another environment works.
      if (c.method !== 'POST' || c.path !== P('/capabilities')) return undefined;
      const env = (c.body as Rec | undefined)?.environment;
      if (env !== 'sandbox') return undefined;
      return failure(
        c,
        400,
        'invalid_request',
        'The request is incomplete or unsuitable.',
        'body field environment must not be set to the default.',
      );
    },
  },
  {
    name: 'scope-label-restricted-to-ascii-word-characters',
    statement:
      'Limits: scopeLabel | length 2 to 120 — Connection: scopeLabel | string | descriptive name, e.g. the name of the venue',
    request(c) {
      // An input sanitiser meant against injection allows only letters, digits, space, dot, hyphen and
      // underscore: venue names such as "Café Lumière" or "Smith & Sons" are refused.
      if (!isCreate(c)) return undefined;
      const label = (c.body as Rec | undefined)?.scopeLabel;
      if (typeof label !== 'string' || label.length < 2 || label.length > 120 || /^[A-Za-z0-9 ._-]*$/.test(label))
        return undefined;
      return failure(
        c,
        400,
        'invalid_request',
        'The request is incomplete or unsuitable.',
        'body field scopeLabel contains characters that are not allowed.',
      );
    },
  },
  {
    name: 'alt-creation-header-key-ignored',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required — The same interface is also offered under a second main-domain address {alt_base_url}',
    request(c) {
      // The alternate address's gateway strips unknown headers and its allow-list lacks Idempotency-Key,
      // so every creation there is refused as if the key were missing.
      if (c.base !== 'alt' || !isCreate(c) || !c.headers['idempotency-key']) return undefined;
      if (!c.headers.authorization || !c.headers['x-service-tenant']) return undefined;
      delete c.headers['idempotency-key'];
      return undefined;
    },
  },
  {
    name: 'other-tenant-not-found-as-forbidden',
    statement: 'Errors: not_found | 404 | the entry does not exist | wrong identifier, entry belongs to another tenant',
    answer(c, a) {
      // The second tenant's requests pass a permission layer that maps every lookup miss to 403.
      const own = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (!own || !tenant || tenant === own || a.status !== 404 || a.json.error?.code !== 'not_found') return;
      refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
];
