// The published description: every operation (path, method, purpose, auth, parameters, body), from which the
// self-description's routes and the OpenAPI 3.1 document (JSON, and YAML files per version) are generated.
import { RECORD_SCHEMAS, successSchema } from './openapi-schemas.ts';
import { ENVIRONMENTS } from './util.ts';
import { SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;
export const CURRENT_VERSION = '2026-07-01';

type Schema = Record<string, unknown>;
interface Op {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  query?: [string, Schema][];
  body?: Schema;
  stream?: boolean;
}

const S = (minLength: number, maxLength: number): Schema => ({ type: 'string', minLength, maxLength });
const obj = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  properties,
  required,
});
const env: Schema = { type: 'string', enum: [...ENVIRONMENTS] };
const P = '/api/public/v1';

export const OPERATIONS: Op[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
  {
    method: 'GET',
    path: `${P}/openapi/{file}`,
    purpose: 'downloadable OpenAPI file per version (2026-07-01.json, 2026-06-12.yaml, ...)',
    auth: false,
  },
  { method: 'GET', path: `${P}/info`, purpose: 'service information', auth: false },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true, query: [['category', S(1, 120)]] },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    query: [
      ['capability', S(1, 120)],
      ['providerId', S(1, 120)],
      ['category', S(1, 120)],
    ],
  },
  { method: 'GET', path: `${P}/capabilities`, purpose: 'capability catalog', auth: true },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    body: obj({ connectorId: S(2, 120), capability: S(2, 120), environment: env }, ['connectorId', 'capability']),
  },
  { method: 'GET', path: `${P}/connections`, purpose: 'connections of the tenant', auth: true },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: obj(
      {
        connectorId: S(2, 120),
        environment: env,
        scopeLabel: S(2, 120),
        capabilities: { type: 'array', minItems: 1, maxItems: 24, items: S(2, 120) },
      },
      ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    ),
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    body: obj({ operation: S(2, 80) }, ['operation']),
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    stream: true,
    query: [['cursor', { type: 'integer', minimum: 0 }]],
  },
  { method: 'GET', path: `${P}/webhooks`, purpose: 'webhook receivers of the tenant', auth: true },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    body: obj(
      {
        url: { type: 'string', format: 'uri' },
        events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
      },
      ['url', 'events'],
    ),
  },
  { method: 'GET', path: `${P}/webhooks/{webhookId}`, purpose: 'one webhook receiver', auth: true },
  { method: 'DELETE', path: `${P}/webhooks/{webhookId}`, purpose: 'remove a webhook receiver', auth: true, key: true },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/messages`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/messages/{messageId}/replay`,
    purpose: 'deliver a logged message again',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a Merkle root per page',
    auth: true,
    query: [
      ['limit', { type: 'integer', minimum: 1, maximum: 200 }],
      ['cursor', { type: 'string' }],
    ],
  },
];

const meta = obj(
  {
    requestId: { type: 'string' },
    version: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    idempotencyKey: { type: 'string' },
    replayed: { type: 'boolean' },
  },
  ['requestId', 'version', 'at'],
);
const failure = obj(
  {
    ok: { const: false },
    error: obj(
      {
        code: {
          type: 'string',
          enum: [
            'unauthorized',
            'forbidden',
            'not_found',
            'invalid_request',
            'capability_denied',
            'idempotency_conflict',
            'idempotency_required',
            'rate_limited',
            'internal',
          ],
        },
        message: { type: 'string' },
        detail: { type: 'string' },
        hint: { type: 'string' },
      },
      ['code', 'message'],
    ),
    meta: { $ref: '#/components/schemas/Meta' },
  },
  ['ok', 'error', 'meta'],
);
const success = obj({ ok: { const: true }, data: { type: 'object' }, meta: { $ref: '#/components/schemas/Meta' } }, [
  'ok',
  'data',
  'meta',
]);

function operation(op: Op, version: string): Schema {
  const parameters: Schema[] = [
    { name: 'Service-Version', in: 'header', required: false, schema: { type: 'string', enum: [...VERSIONS] } },
  ];
  if (op.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (op.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  if (op.stream) parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  for (const [name, schema] of op.query ?? []) parameters.push({ name, in: 'query', required: false, schema });
  for (const m of op.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  const err = {
    description: 'failure',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
  };
  const responses: Schema = op.stream
    ? {
        '200': { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        '400': err,
      }
    : {
        '200': {
          description: 'success',
          content: { 'application/json': { schema: successSchema(op.method, op.path) } },
        },
      };
  if (op.auth) for (const s of ['400', '401', '403', '404', '409', '428', '429', '500']) responses[s] = err;
  else if (!op.stream) responses['404'] = err;
  return {
    operationId: `${op.method.toLowerCase()}${
      op.path
        .slice(P.length)
        .replace(/[{}]/g, '')
        .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()) || 'SelfDescription'
    }`,
    summary: op.purpose,
    description: `${op.purpose} (version ${version})`,
    security: op.auth ? [{ oauth2: [] }] : [],
    parameters,
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of one version. */
export function openapiDocument(version: string, origin: string, tokenUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, Schema>)[op.method.toLowerCase()] = operation(op, version);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (medlar)',
      version,
      description: `Webhook signature header: ${SIGNATURE_HEADER}`,
    },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: { Meta: meta, Failure: failure, Success: success, ...RECORD_SCHEMAS },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl, scopes: { 'ncs:read': 'read', 'ncs:write': 'write' } } },
        },
      },
    },
    'x-webhook-events': [...WEBHOOK_EVENTS],
  };
}
