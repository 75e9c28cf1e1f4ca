import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 47, part 2: valid but unusual requests refused (or refused with the wrong status) in one place. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' ? (b as Rec) : {});
const isKeyIssue = (method: string, path: string) => method === 'POST' && path === P('/idempotency-keys');
const isWebhook = (method: string, path: string) => method === 'POST' && path === P('/webhooks');

export const ROUND47_INPUTS: UnseenViolation[] = [
  {
    name: 'webhook-url-with-query-refused',
    statement:
      'POST /api/public/v1/webhooks: Body: url (string, the receiver address) (an address with a query string)',
    answer(c, a) {
      // The URL allowlist regex ends at the path, so "?source=ncs" makes it fail.
      home(c);
      const url = bodyOf(c.body).url;
      if (isWebhook(c.method, c.path) && typeof url === 'string' && url.includes('?') && a.status === 200)
        refuse(a, 400, 'invalid_request', 'url is not an allowed address.');
    },
  },
  {
    name: 'key-issue-operation-with-space-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) (an operation with a space)',
    answer(c, a) {
      // The operation is used as a metric label and the label validator rejects blanks.
      home(c);
      const op = bodyOf(c.body).operation;
      if (isKeyIssue(c.method, c.path) && typeof op === 'string' && op.includes(' ') && a.status === 200)
        refuse(a, 400, 'invalid_request', 'operation has an invalid format.');
    },
  },
  {
    name: 'webhooks-keys-under-sixteen-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (a key of 8 to 15 characters on webhook registration)',
    answer(c, a) {
      // The webhook service was built on a UUID-keyed store and checks a 16-character minimum of its own.
      home(c);
      const key = c.headers['idempotency-key'];
      if (isWebhook(c.method, c.path) && key && key.length >= 8 && key.length < 16 && a.status === 200)
        refuse(a, 400, 'invalid_request', 'Idempotency-Key must be at least 16 characters.');
    },
  },
  {
    name: 'check-json-with-parameters-answered-415',
    statement:
      'Endpoints: may answer with the statuses 400, 401, 403, 404, 409, 428, 429, 500 (a check whose content type carries a parameter)',
    answer(c, a) {
      // The check route compares the content type exactly, then the framework answers 415 with its own envelope.
      home(c);
      const type = c.headers['content-type'] ?? '';
      if (c.method === 'POST' && c.path === P('/capabilities') && type.includes(';') && a.status === 200)
        refuse(a, 415, 'unsupported_media_type', 'Content type must be application/json.');
    },
  },
  {
    name: 'second-tenant-creation-with-issued-key-refused',
    statement:
      'Modifying calls are repeat-safe through idempotency keys; POST /idempotency-keys: generate an idempotency key (a second tenant uses a key it was issued)',
    answer(c, a) {
      // The issued-key registry is looked up under the run's home tenant, so partner tenants' keys are "unknown".
      const second = isSecond(c);
      const issued = a.json.data?.idempotencyKey;
      if (isKeyIssue(c.method, c.path) && typeof issued === 'string') c.memory.set(`r47-issued-${issued}`, true);
      const key = c.headers['idempotency-key'];
      if (second && isCreate(c) && key && c.memory.has(`r47-issued-${key}`) && a.status === 200)
        refuse(a, 400, 'invalid_request', 'Idempotency-Key was not issued for this tenant.');
    },
  },
  {
    name: 'scope-label-astral-characters-fail-internally',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120; internal | 500 | fault on the service side (a label with an emoji)',
    answer(c, a) {
      // The column is MySQL utf8 (three bytes), so four-byte characters abort the insert.
      home(c);
      const label = bodyOf(c.body).scopeLabel;
      if (isCreate(c) && typeof label === 'string' && /[\u{10000}-\u{10FFFF}]/u.test(label) && a.status === 200)
        refuse(a, 500, 'internal', 'Unexpected error.');
    },
  },
  {
    name: 'key-issue-for-non-connection-operation-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80; e.g. connection.create) (an operation of another resource)',
    answer(c, a) {
      // The key service validates operations against an enum that only lists connection operations.
      home(c);
      const op = bodyOf(c.body).operation;
      if (isKeyIssue(c.method, c.path) && typeof op === 'string' && !op.startsWith('connection.') && a.status === 200)
        refuse(a, 400, 'invalid_request', 'operation is not a known operation.');
    },
  },
  {
    name: 'webhook-events-without-order-created-refused',
    statement:
      'Webhooks: A webhook receiver is registered giving a url and a list of event names (a list without order.created)',
    answer(c, a) {
      // The registration validator was written for the first event and checks that it is always subscribed.
      home(c);
      const events = bodyOf(c.body).events;
      if (isWebhook(c.method, c.path) && Array.isArray(events) && !events.includes('order.created') && a.status === 200)
        refuse(a, 400, 'invalid_request', 'events must include order.created.');
    },
  },
  {
    name: 'development-creation-demands-restaurant-id',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: connectorId, environment, scopeLabel, capabilities (a development creation without restaurantId)',
    answer(c, a) {
      // The development validator was generated from the sample call, which sends restaurantId.
      home(c);
      const body = bodyOf(c.body);
      if (isCreate(c) && body.environment === 'development' && body.restaurantId === undefined && a.status === 200)
        refuse(a, 400, 'invalid_request', 'body field restaurantId is required.');
    },
  },
];
