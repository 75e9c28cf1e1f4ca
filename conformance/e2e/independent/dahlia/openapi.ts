// OpenAPI 3.1 document built from the route table; paths are relative to the server URL /api/public/v1.

import { bodies, data, ref, schemas } from './openapi-schemas.ts';
import type { Route } from './routes.ts';
import { API, CURRENT_VERSION } from './util.ts';

const query: Record<string, string[]> = {
  'GET /providers': ['category'],
  'GET /connectors': ['capability', 'providerId', 'category'],
};

export function openapiDocument(routes: Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const rel = r.path.slice(API.length) || '/';
    const key = `${r.method} ${rel}`;
    const parameters: unknown[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    for (const name of query[key] ?? [])
      parameters.push({ name, in: 'query', required: false, schema: { type: 'string' } });
    if (r.auth !== 'public') {
      parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
      parameters.push({
        name: 'Service-Version',
        in: 'header',
        required: true,
        schema: { type: 'string', enum: ['2026-06-12', '2026-07-01'] },
      });
    }
    if (r.auth === 'key' || (r.method === 'POST' && r.auth === 'yes')) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: r.auth === 'key',
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 },
      });
    }
    if (rel === '/stream') {
      parameters.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } });
      parameters.push({
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        schema: { type: 'string', pattern: '^[0-9]+$' },
      });
    }
    if (rel === '/audit-log') {
      parameters.push({
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      });
      parameters.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'string' } });
    }
    const success =
      rel === '/stream'
        ? { description: 'event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }
        : rel === '/openapi.json'
          ? { description: 'this document', content: { 'application/json': { schema: { type: 'object' } } } }
          : {
              description: 'success',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['ok', 'data', 'meta'],
                    properties: { ok: { const: true }, data: data[key] ?? { type: 'object' }, meta: ref('Meta') },
                  },
                },
              },
            };
    const responses: Record<string, unknown> = { '200': success };
    for (const status of r.auth === 'public'
      ? ['400', '404']
      : ['400', '401', '403', '404', '409', '428', '429', '500']) {
      responses[status] = { description: 'failure', content: { 'application/json': { schema: ref('Failure') } } };
    }
    const operation: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}${rel.replace(/[^A-Za-z]+(\w)?/g, (_s, c?: string) => (c ? c.toUpperCase() : ''))}`,
      summary: r.purpose,
      parameters,
      responses,
    };
    if (r.auth !== 'public') operation.security = [{ oauth2: [] }];
    const body = bodies[key];
    if (body) operation.requestBody = { required: true, content: { 'application/json': { schema: body } } };
    paths[rel] = { ...(paths[rel] ?? {}), [r.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (dahlia)', version: CURRENT_VERSION },
    servers: [{ url: API }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/auth/oauth/token', scopes: {} } } },
      },
    },
  };
}
