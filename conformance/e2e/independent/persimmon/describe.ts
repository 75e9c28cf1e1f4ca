// The self-description and the OpenAPI 3.1 document, both built from the route table. The document is
// served for the requested version and as per-version JSON and YAML files (Data.Yaml's block style).
import { TOKEN_PATH } from './auth.ts';
import { type Ctx, fail, type Rec, VERSIONS } from './http.ts';
import { KEY_TTL_SECONDS } from './idempotency.ts';
import { BODIES, DATA, PARAMS, SCHEMAS } from './openapi-schemas.ts';
import { ROUTES, type Route } from './routes.ts';
import { toYaml } from './yaml.ts';

const P = '/api/public/v1';
const servedIn = (r: Route, version: string) => r.since === undefined || version >= r.since;

export function selfDescription(ctx: Ctx): Rec {
  return {
    service: 'persimmon network connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenUrl: TOKEN_PATH,
      scheme: 'Bearer',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', ttlSeconds: KEY_TTL_SECONDS },
    webhooks: { events: ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'] },
    openapi: Object.fromEntries(
      VERSIONS.map((v) => [v, { json: `${P}/openapi/${v}.json`, yaml: `${P}/openapi/${v}.yaml` }]),
    ),
    routes: ROUTES.filter((r) => servedIn(r, ctx.version)).map(({ method, path, purpose, auth }) => ({
      method,
      path,
      purpose,
      auth,
    })),
  };
}

const envelope = (data: Rec) => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { type: 'boolean', const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
});
const failure = (description: string, headers?: Rec) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});
// The rate-limit middleware's headers, as servant's `Headers '[Header "X-RateLimit-Limit" Int, ...]`.
const intHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': intHeader('size of the token bucket'),
  'X-RateLimit-Remaining': intHeader('whole tokens left'),
};

function operation(r: Route): Rec {
  const rel = `${r.method} ${r.path.slice(P.length)}`;
  const param = (name: string, where: string, required: boolean, schema: Rec): Rec => ({
    name,
    in: where,
    required,
    schema,
  });
  const params: Rec[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) =>
    param(m[1] ?? '', 'path', true, { type: 'string' }),
  );
  for (const [name, where, schema] of PARAMS[rel] ?? []) params.push(param(name, where, false, schema));
  const needsKey = r.auth && r.method !== 'GET' && rel !== 'POST /capabilities' && rel !== 'POST /idempotency-keys';
  if (needsKey)
    params.push(param('Idempotency-Key', 'header', true, { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' }));
  if (r.auth) params.push(param('x-service-tenant', 'header', true, { type: 'string' }));
  const ok = r.path.endsWith('/stream')
    ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
    : {
        description: 'success',
        content: { 'application/json': { schema: envelope(DATA[rel] ?? { type: 'object' }) } },
      };
  const op: Rec = {
    operationId: `${r.method.toLowerCase()}${r.path.slice(P.length).replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c?: string) => (c ?? '').toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    parameters: params,
    responses: r.auth
      ? {
          '200': { ...ok, headers: LIMIT_HEADERS },
          '400': failure('invalid_request'),
          '401': failure('unauthorized'),
          '403': failure('forbidden'),
          '404': failure('not_found'),
          '409': failure('conflict'),
          '428': failure('idempotency_required'),
          '429': failure('rate_limited', {
            ...LIMIT_HEADERS,
            'Retry-After': intHeader('seconds until a token is back'),
          }),
          '500': failure('internal'),
        }
      : { '200': ok, '400': failure('invalid_request') },
    security: r.auth ? [{ oauth2: [] }] : [],
  };
  const body = BODIES[rel];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return op;
}

export function buildOpenApi(origin: string, version: string): Rec {
  const paths: Rec = {};
  for (const r of ROUTES.filter((x) => servedIn(x, version))) {
    paths[r.path] = { ...paths[r.path], [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (persimmon)', version },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: {} } } },
      },
    },
  };
}

export function openApiFile(ctx: Ctx, version: string, format: 'json' | 'yaml'): void {
  if (!(VERSIONS as readonly string[]).includes(version))
    throw fail.notFound(`no OpenAPI document for version ${version}`);
  const doc = buildOpenApi(`http://${ctx.req.headers.host ?? '127.0.0.1'}`, version);
  const text = format === 'json' ? JSON.stringify(doc) : toYaml(doc);
  const type = format === 'json' ? 'application/json;charset=utf-8' : 'application/yaml;charset=utf-8';
  const headers: Rec = { ...ctx.headers, 'content-type': type };
  if (ctx.url.pathname.includes('/openapi/'))
    headers['content-disposition'] = `attachment; filename="ncs-${version}.${format}"`;
  ctx.res.writeHead(200, headers);
  ctx.res.end(text);
}
