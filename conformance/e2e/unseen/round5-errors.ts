import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 5 of the unseen violations, part 2: refusals with the wrong status or code for one particular
 * cause (an entry of another tenant, a body that is not JSON, a method a path does not offer, a key
 * that is malformed rather than missing), refusals of what is allowed (a check of a capability that
 * needs keys, the 24th capability, a key of 128 characters, one environment value) and a limit answered as a lookup. Each
 * rewrites the simulator's own answer, so headers and meta stay as a deployment would send them.
 */
const KEY = /^[A-Za-z0-9._:-]{8,128}$/;
const INVALID = 'The request is incomplete or unsuitable.';
const sent = (c: ProxyCall) =>
  c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Record<string, unknown>) : {};
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
/** Calls whose 24 capabilities went on as 25. */
const widened = new WeakSet<ProxyCall>();
/** Calls whose key of 128 characters went on with 129. */
const stretched = new WeakSet<ProxyCall>();
const entryPath = new RegExp(`^${BASE_PATH}/(?:connections|webhooks)/([^/]+)`);

export const ROUND5_ERRORS: UnseenViolation[] = [
  {
    name: 'other-tenants-entry-forbidden',
    statement: 'Errors: not_found | 404 | possible causes: wrong identifier, entry belongs to another tenant',
    answer(c, a) {
      // An ownership check that runs before the tenant-scoped lookup: it says forbidden, not "no such entry".
      const owners = (c.memory.get('owners') ?? new Map()) as Map<string, string>;
      c.memory.set('owners', owners);
      const tenant = c.headers['x-service-tenant'] ?? '';
      const created = c.method === 'POST' && (c.path === P('/connections') || c.path === P('/webhooks'));
      if (created && a.status === 200 && typeof a.json.data?.id === 'string') owners.set(a.json.data.id, tenant);
      const id = entryPath.exec(c.path)?.[1];
      const owner = id === undefined ? undefined : owners.get(decodeURIComponent(id));
      if (a.status === 404 && owner !== undefined && owner !== tenant)
        refuse(a, 403, 'forbidden', 'The access may not perform the action.', 'The entry belongs to another tenant.');
    },
  },
  {
    name: 'non-json-body-415',
    statement:
      'Endpoints: authenticated endpoints may answer 400, 401, 403, 404, 409, 428, 429, 500 (a body of another media type is invalid_request)',
    answer(c, a) {
      const type = c.headers['content-type'] ?? '';
      if (c.method === 'POST' && a.status === 400 && !/json/i.test(type))
        refuse(a, 415, 'unsupported_media_type', 'The body must be sent as application/json.');
    },
  },
  {
    name: 'unoffered-method-405',
    statement: 'Failure envelope: error.code | one of the codes in the Errors part (statuses 400 … 500 as listed)',
    answer(_c, a) {
      // The framework's own method check answers before the interface's error mapping.
      if (a.status === 404 && a.headers.allow) refuse(a, 405, 'method_not_allowed', `Use one of: ${a.headers.allow}.`);
    },
  },
  {
    name: 'malformed-key-as-missing',
    statement:
      'Errors: idempotency_required | 428 | cause: header Idempotency-Key missing (a present but malformed key is invalid_request | 400)',
    answer(c, a) {
      const key = c.headers['idempotency-key'];
      if (a.status === 400 && key !== undefined && !KEY.test(key))
        refuse(a, 428, 'idempotency_required', 'An idempotency key is mandatory for this call.');
    },
  },
  {
    name: 'check-of-keyed-capability-needs-key',
    statement: 'Endpoints: POST /capabilities | yes (no key): only "yes + key" endpoints need an Idempotency-Key',
    answer(c, a) {
      // The check mistakes "this capability needs keys" for "this call needs a key".
      const d = a.json.data?.decision;
      if (isCheck(c) && a.status === 200 && d?.idempotencyRequired === true && !c.headers['idempotency-key'])
        refuse(a, 428, 'idempotency_required', 'An idempotency key is mandatory for this call.');
    },
  },
  {
    name: 'out-of-range-connector-id-not-found',
    statement:
      'Limits: connectorId (checks) length 2 to 120 — outside it the request is invalid_request | 400, not a lookup',
    answer(c, a) {
      const id = sent(c).connectorId;
      if (isCheck(c) && a.status === 400 && typeof id === 'string' && (id.length < 2 || id.length > 120))
        refuse(
          a,
          404,
          'not_found',
          'The entry does not exist.',
          'No connector with the id given in body field connectorId.',
        );
    },
  },
  {
    name: 'twenty-four-capabilities-refused',
    statement: 'Limits: capabilities in connection creation: 1 to 24 items (24 is allowed)',
    request(c) {
      // A validator written as `< 24`: the simulator is handed one more so that it refuses.
      const caps = sent(c).capabilities;
      if (isCreate(c) && Array.isArray(caps) && caps.length === 24) {
        widened.add(c);
        c.body = { ...sent(c), capabilities: [...caps, 'xx'] };
      }
      return undefined;
    },
    answer(c, a) {
      if (widened.has(c) && a.json.error)
        a.json.error.detail = 'body field capabilities must contain at most 23 items.';
    },
  },
  {
    name: 'key-of-128-refused',
    statement: 'Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters: 128 is allowed)',
    request(c) {
      // A length check written as `< 128`: the simulator is handed one character more so that it refuses.
      const key = c.headers['idempotency-key'];
      if (key?.length === 128 && KEY.test(key)) {
        stretched.add(c);
        c.headers['idempotency-key'] = `${key}0`;
      }
      return undefined;
    },
    answer(c, a) {
      if (stretched.has(c) && a.json.error)
        a.json.error.detail =
          'header Idempotency-Key must be 8 to 127 letters, digits, dots, underscores, colons or hyphens.';
    },
  },
  {
    name: 'development-refused-on-checks',
    statement: 'POST /capabilities: environment | Environment (development, sandbox, pilot, production)',
    answer(c, a) {
      // The check's own enumeration was written before "development" was added.
      if (isCheck(c) && a.status === 200 && sent(c).environment === 'development')
        refuse(
          a,
          400,
          'invalid_request',
          INVALID,
          'body field environment must be one of: sandbox, pilot, production.',
        );
    },
  },
];
