// openapi.json as API Gateway's export gives it: `servers` is the absolute URL of the stage called, every
// operation carries x-amazon-apigateway-integration, schemas are inline (no $ref), errors are
// documented once per operation under `default`.
import { CURRENT_VERSION } from './http-kit.ts';
import { BODY, DATA, ERROR, META, OPEN, obj } from './openapi-schemas.ts';
import type { Route } from './routes.ts';
import { ROUTES } from './routes.ts';

function header(name: string, required: boolean, schema: unknown, description: string) {
  return { name, in: 'header', required, schema, description };
}

function query(name: string, required: boolean, schema: unknown) {
  return { name, in: 'query', required, schema };
}

const QUERY: Record<string, unknown[]> = {
  listProviders: [query('category', false, { type: 'string' })],
  listConnectors: [
    query('capability', false, { type: 'string' }),
    query('providerId', false, { type: 'string' }),
    query('category', false, { type: 'string' }),
  ],
  stream: [
    query('cursor', false, { type: 'integer', minimum: 0 }),
    header('Last-Event-ID', false, { type: 'string' }, 'last number read'),
  ],
  listWebhookDeliveries: [query('webhookId', true, { type: 'string' })],
  readAuditLog: [
    query('limit', false, { type: 'integer', minimum: 1, maximum: 100 }),
    query('nextToken', false, { type: 'string' }),
  ],
  retryWebhookDelivery: [{ name: 'deliveryId', in: 'path', required: true, schema: { type: 'string' } }],
};

function operation(route: Route) {
  const parameters: unknown[] = [
    header('Service-Version', false, { type: 'string' }, 'interface version, e.g. 2026-07-01'),
  ];
  if (route.auth) parameters.push(header('x-service-tenant', true, { type: 'string' }, 'tenant of the call'));
  if (route.key !== 'none') {
    parameters.push(
      header(
        'Idempotency-Key',
        route.key === 'required',
        { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 },
        'key against double effects',
      ),
    );
  }
  parameters.push(...(QUERY[route.operationId] ?? []));
  const success =
    route.operationId === 'stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : route.operationId === 'openapi'
        ? { description: 'this document', content: { 'application/json': { schema: OPEN } } }
        : {
            description: 'success',
            content: {
              'application/json': {
                schema: obj({
                  ok: { type: 'boolean', const: true },
                  data: DATA[route.operationId] ?? OPEN,
                  meta: META,
                }),
              },
            },
          };
  const body = BODY[route.operationId];
  return {
    operationId: route.operationId,
    summary: route.purpose,
    security: route.auth ? [{ bearer: [] }] : [],
    parameters,
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses: {
      '200': success,
      default: { description: 'failure envelope', content: { 'application/json': { schema: ERROR } } },
    },
    'x-amazon-apigateway-integration': {
      type: 'aws_proxy',
      httpMethod: 'POST',
      uri: `arn:aws:apigateway:eu-central-1:lambda:path/2015-03-31/functions/arn:aws:lambda:eu-central-1:123456789012:function:ivy-${route.operationId}/invocations`,
      passthroughBehavior: 'when_no_match',
      timeoutInMillis: 29000,
    },
  };
}

export function openapiDocument(stageUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    const p = route.path === '' ? '/' : route.path;
    paths[p] = { ...(paths[p] ?? {}), [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (ivy)', version: CURRENT_VERSION },
    servers: [{ url: `${stageUrl}/api/public/v1` }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'OAuth 2.1 client credentials; the token URL is given at onboarding',
        },
      },
    },
  };
}
