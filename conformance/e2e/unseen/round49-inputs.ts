import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, LISTS, P, refuse } from './proxy-helpers.ts';
import { earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 49, part 2: requests refused or coded wrongly for their form: key order, JSON kind, method, blanks, place. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const invalid = (a: Parameters<typeof refuse>[0], detail: string) =>
  refuse(a, 400, 'invalid_request', 'The request is incomplete or unsuitable.', detail);
/** The order of the interface's field table for a creation body. */
const CREATE_ORDER = ['connectorId', 'environment', 'scopeLabel', 'capabilities'];

export const ROUND49_INPUTS: UnseenViolation[] = [
  {
    name: 'creation-body-keys-out-of-table-order-refused',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: connectorId, environment, scopeLabel, capabilities (a valid body whose keys come in another order)',
    answer(c, a) {
      // A streaming validator expects the fields in schema order and reports the first out-of-place one as missing.
      home(c);
      const keys = Object.keys(bodyOf(c.body)).filter((k) => CREATE_ORDER.includes(k));
      const inOrder = keys.every(
        (k, i) => i === 0 || CREATE_ORDER.indexOf(k) > CREATE_ORDER.indexOf(keys[i - 1] ?? ''),
      );
      if (isCreate(c) && a.status === 200 && !inOrder) invalid(a, 'body field connectorId is required.');
    },
  },
  {
    name: 'scalar-json-body-refusal-coded-internal',
    statement:
      'Errors: invalid_request | 400 | wrong data type; internal | 500 (a POST whose body is a JSON string, number, boolean or null)',
    answer(c, a) {
      // The body guard throws on a non-object before validation and the 400 it sets keeps the catch-all's code.
      home(c);
      const scalar = c.body === null || (c.body !== undefined && typeof c.body !== 'object');
      if (c.method === 'POST' && scalar && a.status === 400 && a.json.error) a.json.error.code = 'internal';
    },
  },
  {
    name: 'unoffered-method-refusal-coded-invalid-request',
    statement:
      'Errors: not_found | 404 (a method the path does not offer, e.g. DELETE on a catalog path, answered 404 with code invalid_request)',
    answer(c, a) {
      // The router's method-miss handler reuses the validation error's code with the not-found status.
      home(c);
      const known = Boolean(LISTS[c.path]) || c.path === P('') || c.path === P('/audit-log');
      if (known && c.method !== 'GET' && c.method !== 'POST' && a.status === 404 && a.json.error)
        a.json.error.code = 'invalid_request';
    },
  },
  {
    name: 'catalog-filter-with-blank-refused',
    statement:
      'GET /api/public/v1/connectors: capability | string | no; providerId | string; category | string (a filter value containing a blank)',
    answer(c, a) {
      // The gateway's injection filter rejects any query value with whitespace.
      home(c);
      const blank = [...c.search.values()].some((v) => /\s/.test(v));
      if (c.method === 'GET' && LISTS[c.path] && blank && a.status === 200) invalid(a, 'query contains whitespace.');
    },
  },
  {
    name: 'second-tenant-creation-in-development-refused',
    statement:
      'POST /api/public/v1/connections: environment | Environment (development, sandbox, pilot, production; a development creation for the second tenant)',
    answer(c, a) {
      // The second tenant's plan was imported with the production environments only and the enum check reads the plan.
      const second = isSecond(c);
      if (second && isCreate(c) && bodyOf(c.body).environment === 'development' && a.status === 200)
        invalid(a, 'body field environment must be one of sandbox, pilot, production.');
    },
  },
  {
    name: 'alt-creation-with-one-capability-refused',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items (a single capability under {alt_base_url})',
    answer(c, a) {
      // The alternate deployment's schema was built with minItems 2 from a stale config value.
      home(c);
      const caps = bodyOf(c.body).capabilities;
      if (c.base === 'alt' && isCreate(c) && Array.isArray(caps) && caps.length === 1 && a.status === 200)
        invalid(a, 'body field capabilities must have at least 2 items.');
    },
  },
  {
    name: 'earlier-version-key-issue-answered-428',
    statement: 'Endpoints: POST /api/public/v1/idempotency-keys | yes (no key) (under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 adapter marks every POST as modifying, the key issue included.
      home(c);
      if (earlier(c) && c.method === 'POST' && c.path === P('/idempotency-keys') && !c.headers['idempotency-key'])
        if (a.status === 200) refuse(a, 428, 'idempotency_required', 'An idempotency key is mandatory for this call.');
    },
  },
  {
    name: 'second-tenant-connectors-combined-filters-refused',
    statement:
      'GET /api/public/v1/connectors: capability, providerId, category | no (two filters together, for the second tenant)',
    answer(c, a) {
      // The second tenant's read replica has no composite index and the query planner guard refuses the call.
      const second = isSecond(c);
      const filters = ['capability', 'providerId', 'category'].filter((k) => c.search.has(k));
      if (second && c.method === 'GET' && c.path === P('/connectors') && filters.length > 1 && a.status === 200)
        invalid(a, 'only one filter is supported.');
    },
  },
];
