// The OpenAPI 3.1 document, built from the route table (as @nestjs/swagger would from the controllers).

import { BODIES, DATA, ERRORS, obj, QUERY, ref, SCHEMAS, str } from './openapi-schemas.ts';
import type { Route } from './state.ts';
import { CURRENT_VERSION } from './util.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

function operation(r: Route): Record<string, unknown> {
  const id = `${r.method} ${r.path}`;
  const params: unknown[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  for (const [name, schema] of QUERY[id] ?? []) params.push({ name, in: 'query', required: false, schema });
  if (r.auth) {
    params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str() });
    params.push({
      name: 'Service-Version',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: ['2026-06-12', CURRENT_VERSION] },
    });
  }
  if (r.key)
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  if (id === 'GET /api/public/v1/stream')
    params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: str() });
  const op: Record<string, unknown> = {
    operationId: id.replace(/[^A-Za-z0-9]+/g, '_'),
    summary: r.purpose,
    parameters: params,
  };
  if (BODIES[id]) op.requestBody = { required: true, content: { 'application/json': { schema: BODIES[id] } } };
  const success =
    id === 'GET /api/public/v1/stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : id === 'GET /api/public/v1/openapi.json'
        ? { description: 'this document', content: { 'application/json': { schema: { type: 'object' } } } }
        : {
            description: 'success',
            content: {
              'application/json': {
                schema: obj({
                  ok: { type: 'boolean', const: true },
                  data: DATA[id] ?? { type: 'object' },
                  meta: ref('Meta'),
                }),
              },
            },
          };
  const responses: Record<string, unknown> = { '200': success };
  const codes = r.auth ? Object.keys(ERRORS) : id === 'GET /api/public/v1/stream' ? ['400', '500'] : ['500'];
  for (const c of codes)
    responses[c] = { description: ERRORS[c], content: { 'application/json': { schema: ref('Failure') } } };
  op.responses = responses;
  if (r.auth) op.security = [{ clientCredentials: [] }];
  return op;
}

export function buildOpenApi(routes: Route[], origin: string, version = CURRENT_VERSION): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.since && r.since > version) continue;
    paths[r.path] ??= {};
    const entry = paths[r.path];
    if (entry) entry[r.method.toLowerCase()] = operation(r);
  }
  const delivery = {
    post: {
      summary: 'signed delivery to a registered receiver',
      parameters: [
        {
          name: SIGNATURE_HEADER,
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
        },
        { name: DELIVERY_HEADER, in: 'header', required: true, schema: str() },
      ],
      requestBody: {
        content: {
          'application/json': {
            schema: obj({ id: str(), type: str(), createdAt: str(), tenant: str(), data: { type: 'object' } }),
          },
        },
      },
      responses: { '200': { description: 'any 2xx acknowledges' } },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service', version, description: 'Public interface /api/public/v1' },
    servers: [{ url: origin }],
    paths,
    webhooks: Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, delivery])),
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        clientCredentials: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}/oauth2/default/v1/token`,
              scopes: {
                'connections:read': 'read',
                'connections:write': 'write',
                'webhooks:manage': 'webhooks',
                'audit:read': 'audit',
              },
            },
          },
        },
      },
    },
  };
}
