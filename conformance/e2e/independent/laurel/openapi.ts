// The OpenAPI 3.1 document, built from the route table and the hand-written schemas, and a small YAML
// writer (block style, every scalar quoted as JSON) for the .yaml downloads.
import type { Param, Route } from './routes.ts';
import { ROUTES } from './routes.ts';
import { SCHEMAS } from './schemas.ts';

const ERRORS: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'idempotency_conflict or capability_denied',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

function responses(route: Route): Record<string, unknown> {
  let content: Record<string, unknown>;
  if (route.raw) {
    content = Object.fromEntries(
      route.raw
        .split('|')
        .map((t) => [t, { schema: t === 'text/event-stream' ? { type: 'string' } : { type: 'object' } }]),
    );
  } else {
    const envelope = {
      type: 'object',
      required: ['ok', 'data', 'meta'],
      properties: {
        ok: { type: 'boolean', const: true },
        data: { $ref: `#/components/schemas/${route.data}` },
        meta: { $ref: '#/components/schemas/Meta' },
      },
    };
    content = { 'application/json': { schema: envelope } };
  }
  const out: Record<string, unknown> = { '200': { description: 'success', content } };
  const codes =
    route.auth === 'public'
      ? route.path.endsWith('/stream')
        ? ['400', '429', '500']
        : ['429', '500']
      : Object.keys(ERRORS);
  for (const code of codes) {
    out[code] = {
      description: ERRORS[code],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    };
  }
  return out;
}

function parameters(route: Route): Param[] {
  const list: Param[] = [...(route.params ?? [])];
  if (route.auth !== 'public') {
    list.push({
      name: 'x-service-tenant',
      in: 'header',
      required: true,
      schema: { type: 'string' },
      description: 'tenant of the call',
    });
  }
  if (route.auth === 'key' || (route.auth === 'yes' && route.method === 'POST')) {
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: route.auth === 'key',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  }
  list.push({
    name: 'Service-Version',
    in: 'header',
    schema: { type: 'string', example: '2026-07-01' },
    description: 'optional; unknown values are answered as the current version',
  });
  return list;
}

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  // 2026-06-12 had no delivery log (added in 2026-07-01).
  const routes = ROUTES.filter((r) => version !== '2026-06-12' || !r.path.includes('webhook-deliveries'));
  for (const route of routes) {
    const op: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.purpose,
      tags: [route.tag],
      parameters: parameters(route),
      responses: responses(route),
      security: route.auth === 'public' ? [] : [{ oauth2: [] }],
    };
    if (route.body) {
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.body}` } } },
      };
    }
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (laurel)', version, description: 'Public interface /api/public/v1.' },
    servers: [{ url: '/' }],
    tags: ['meta', 'catalog', 'connections', 'events', 'webhooks', 'audit'].map((name) => ({ name })),
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: '/realms/laurel/protocol/openid-connect/token', scopes: {} } },
        },
      },
    },
  };
}

/** Block-style YAML; scalars as JSON (valid YAML 1.2 double-quoted strings, numbers, booleans, null). */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value.map((v) => `\n${indent}- ${toYaml(v, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return entries
      .map(([k, v]) => {
        const inner = toYaml(v, `${indent}  `);
        const block = inner.startsWith('\n');
        return `\n${indent}${JSON.stringify(k)}:${block ? '' : ' '}${inner}`;
      })
      .join('');
  }
  return JSON.stringify(value) ?? 'null';
}

export function yamlDocument(version: string): string {
  return `${toYaml(openApiDocument(version)).replace(/^\n/, '')}\n`;
}
