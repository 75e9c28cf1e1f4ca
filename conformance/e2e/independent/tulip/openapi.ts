// The hand-written OpenAPI 3.1 document (the team's tapir endpoints would generate the same shape), built from
// the route table, and the self-description. Per version it is offered as JSON and YAML files; the 2026-06-12
// document lacks the delivery log, which came with 2026-07-01.
import { TOKEN_PATH } from './auth.ts';
import { type Ctx, CURRENT_VERSION, notFound, ok, PREFIX, print, type Rec, VERSIONS } from './http.ts';
import { KEY_PATTERN } from './idempotency.ts';
import { bodySchemas, cursorAuditSchema, dataSchemas, envelopeSchemas } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';
import type { Store } from './state.ts';
import { EVENTS, SIGNATURE_HEADER } from './webhooks.ts';
import { toYaml } from './yaml.ts';

const KEYED_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: { type: 'string', pattern: KEY_PATTERN.source },
};
const TENANT_HEADER = { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } };
const VERSION_HEADER = {
  name: 'Service-Version',
  in: 'header',
  required: false,
  schema: { type: 'string', enum: VERSIONS },
};

function operation(method: string, path: string, route: (typeof ROUTES)[number], options: Store['options']): Rec {
  const params: Rec[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.auth) params.push(TENANT_HEADER);
  if (route.key) params.push(KEYED_HEADER);
  params.push(VERSION_HEADER);
  const short = `${method} ${path.slice(PREFIX.length) || '/'}`;
  const queries: Record<string, Rec[]> = {
    'GET /providers': [{ name: 'category', in: 'query', schema: { type: 'string' } }],
    'GET /connectors': ['capability', 'providerId', 'category'].map((name) => ({
      name,
      in: 'query',
      schema: { type: 'string' },
    })),
    'GET /stream': [
      { name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 } },
      { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } },
    ],
    'GET /audit-log': [
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
      options.auditCursorPages
        ? { name: 'cursor', in: 'query', schema: { type: 'string' } }
        : { name: 'before', in: 'query', schema: { type: 'integer', minimum: 1 } },
    ],
  };
  params.push(...(queries[short] ?? []));
  const body = bodySchemas[short];
  const isStream = short === 'GET /stream';
  const op: Rec = {
    operationId: short.replace(/[^A-Za-z0-9]+/g, '_').replace(/_$/, ''),
    summary: route.purpose,
    parameters: params,
    responses: {
      '200': isStream
        ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
        : {
            description: 'Success',
            content: {
              'application/json': {
                schema: envelope(
                  (options.auditCursorPages && short === 'GET /audit-log' ? cursorAuditSchema : dataSchemas[short]) ?? {
                    type: 'object',
                  },
                ),
              },
            },
          },
      default: {
        description: 'Failure',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
      },
    },
  };
  if (route.auth) {
    // The limiter's headers, as the team's tapir endpoints declare them on every authenticated output.
    const int = { schema: { type: 'integer', minimum: 0 } };
    const limits = { 'X-RateLimit-Limit': int, 'X-RateLimit-Remaining': int };
    op.responses['200'].headers = limits;
    op.responses['429'] = {
      description: 'Too many calls (rate_limited)',
      headers: { ...limits, 'Retry-After': { required: true, schema: { type: 'integer', minimum: 1 } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    };
  }
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  if (route.auth) op.security = [{ oauth2: [] }];
  return op;
}

function envelope(data: Rec): Rec {
  return {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: { ok: { const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
  };
}

export function document(version: string, options: Store['options']): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    if (version !== CURRENT_VERSION && r.path.includes('delivery-attempts')) continue;
    paths[r.path] ??= {};
    paths[r.path][r.method.toLowerCase()] = operation(r.method, r.path, r, options);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (tulip)',
      version,
      description: `Webhook signature header: ${SIGNATURE_HEADER}`,
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: envelopeSchemas,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: { 'ncs.read': 'read', 'ncs.write': 'write' } } },
        },
      },
    },
  };
}

export function serveOpenApi(store: Store, ctx: Ctx, format: 'json' | 'yaml'): void {
  const version = ctx.params.version ?? CURRENT_VERSION;
  if (!VERSIONS.includes(version)) throw notFound('OpenAPI version');
  const text = format === 'json' ? print(document(version, store.options)) : toYaml(document(version, store.options));
  const type = format === 'json' ? 'application/json' : 'application/yaml';
  const headers: Record<string, string> = { 'content-type': type };
  if (ctx.params.version) headers['content-disposition'] = `attachment; filename="ncs-${version}.${format}"`;
  ctx.res.writeHead(200, { ...headers, 'x-request-id': ctx.requestId });
  ctx.res.end(text);
}

export function serveSelf(_store: Store, ctx: Ctx): void {
  ok(ctx, {
    service: 'tulip network connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl: TOKEN_PATH,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: KEY_PATTERN.source, validity: 'PT24H' },
    webhooks: { events: EVENTS, signatureHeader: SIGNATURE_HEADER },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}
