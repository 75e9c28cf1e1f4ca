// Self-description, the OpenAPI 3.1 document built from the route table, and its JSON/YAML downloads.
import { type Ctx, notFound, type Reply } from './http.ts';
import { SCHEMAS } from './openapi-schemas.ts';
import {
  BASE_PATH,
  CURRENT_VERSION,
  DEPLOYMENT_ENVIRONMENT,
  IDEMPOTENCY_KEY_PATTERN,
  SCOPES,
  SERVICE,
  SURFACE,
  TOKEN_PATH,
  VERSIONS,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENTS,
  WEBHOOK_SIGNATURE_HEADER,
} from './options.ts';
import { ROUTES, type Route } from './routes.ts';
import type { State } from './state.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (name: string, required: boolean, schema: Record<string, unknown>, description: string) => ({
  name,
  in: 'header',
  required,
  schema,
  description,
});
const inVersion = (r: Route, version: string) => !r.since || r.since <= version;

function operation(r: Route) {
  const parameters: Record<string, unknown>[] = [
    header('Service-Version', false, { type: 'string', enum: [...VERSIONS] }, 'interface version (default: current)'),
  ];
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  for (const q of r.query ?? []) {
    const schema = q.type === 'integer' ? { type: 'integer', minimum: 0 } : { type: 'string' };
    parameters.push({ name: q.name, in: 'query', required: false, schema, description: q.description });
  }
  if (r.auth) parameters.push(header('x-service-tenant', true, { type: 'string' }, 'tenant the call applies to'));
  if (r.key) {
    const schema = { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source };
    parameters.push(header('Idempotency-Key', true, schema, 'key against double effects'));
  }
  if (r.path.endsWith('/stream')) {
    parameters.push(header('Last-Event-ID', false, { type: 'string' }, 'last number read'));
  }
  const ok = r.raw
    ? { description: 'OK', content: { [r.raw]: { schema: { type: 'string' } } } }
    : {
        description: 'OK',
        headers: r.auth ? { 'X-RateLimit-Limit': rl, 'X-RateLimit-Remaining': rl } : undefined,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['ok', 'data', 'meta'],
              properties: { ok: { const: true }, data: r.data ? ref(r.data) : { type: 'object' }, meta: ref('Meta') },
            },
          },
        },
      };
  const errors = r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '404', '500'];
  const responses: Record<string, unknown> = { '200': ok };
  for (const code of errors)
    responses[code] = { $ref: `#/components/responses/${code === '429' ? 'RateLimited' : 'Error'}` };
  const name = `${r.method.toLowerCase()}${r.path
    .slice(BASE_PATH.length)
    .replace(/\{(\w+)\}/g, 'By-$1')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('')}`;
  return {
    operationId: name === 'get' ? 'getServiceDescription' : name,
    summary: r.purpose,
    security: r.auth ? [{ oauth2: SCOPES }] : [],
    parameters,
    requestBody: r.body
      ? { required: true, content: { 'application/json': { schema: SCHEMAS[r.body] ?? ref(r.body) } } }
      : undefined,
    responses,
  };
}
const rl = { schema: { type: 'integer' } };

/** The OpenAPI 3.1 document of one interface version. */
export function buildOpenApi(state: State, version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES.filter((x) => inVersion(x, version))) {
    const item = paths[r.path] ?? {};
    item[r.method.toLowerCase()] = operation(r);
    paths[r.path] = item;
  }
  const failure = { 'application/json': { schema: ref('Failure') } };
  const webhooks: Record<string, unknown> = {};
  for (const e of WEBHOOK_EVENTS) {
    webhooks[e] = {
      post: {
        operationId: `deliver${e.replace(/(^|[._])(\w)/g, (_m, _p, c: string) => c.toUpperCase())}`,
        summary: `${e} delivery to a registered receiver`,
        security: [],
        parameters: [
          header(WEBHOOK_SIGNATURE_HEADER, true, { type: 'string' }, 't=<unix-seconds>,v1=<hex hmac-sha256>'),
          header(WEBHOOK_DELIVERY_HEADER, true, { type: 'string' }, 'id of the delivery in the delivery log'),
        ],
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'accepted by the receiver' } },
      },
    };
  }
  return JSON.parse(
    JSON.stringify({
      openapi: '3.1.0',
      info: {
        title: 'Network Connections Service (mahogany)',
        version,
        description: `Public interface ${BASE_PATH}; environment ${DEPLOYMENT_ENVIRONMENT}.`,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: state.baseUrl }, { url: state.altBaseUrl }],
      paths,
      webhooks,
      components: {
        schemas: SCHEMAS,
        responses: {
          Error: { description: 'failure envelope', content: failure },
          RateLimited: { description: 'too many calls', headers: { 'Retry-After': rl }, content: failure },
        },
        securitySchemes: {
          oauth2: {
            type: 'oauth2',
            flows: {
              clientCredentials: {
                tokenUrl: `${state.baseUrl}${TOKEN_PATH}`,
                scopes: { 'ncs.read': 'read the catalog and connections', 'ncs.write': 'create and change' },
              },
            },
          },
        },
      },
    }),
  );
}

/** JSON as YAML (every scalar JSON-quoted, which YAML reads as the same string). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return v.map((x) => `\n${indent}- ${toYaml(x, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return '{}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}: ${toYaml(x, `${indent}  `)}`).join('');
  }
  return JSON.stringify(v) ?? 'null';
}

export function openApiAnswer(ctx: Ctx): Reply {
  return { data: buildOpenApi(ctx.state, ctx.version) };
}

export function downloadOpenApi(ctx: Ctx): undefined {
  const version = ctx.params.version ?? '';
  if (!(VERSIONS as readonly string[]).includes(version)) throw notFound(`Version ${version}`);
  const yaml = ctx.url.pathname.endsWith('.yaml');
  const doc = buildOpenApi(ctx.state, version);
  const text = yaml ? `${toYaml(doc).replace(/^\n/, '')}\n` : JSON.stringify(doc, null, 2);
  ctx.res.writeHead(200, {
    'content-type': yaml
      ? 'application/vnd.oai.openapi; charset=utf-8'
      : 'application/vnd.oai.openapi+json; charset=utf-8',
    'content-disposition': `attachment; filename="mahogany-openapi-${version}.${yaml ? 'yaml' : 'json'}"`,
    'x-request-id': ctx.requestId,
    'service-version': version,
  });
  ctx.res.end(text);
  return undefined;
}

export function describeService(ctx: Ctx): Reply {
  const o = ctx.state.options;
  return {
    data: {
      service: SERVICE,
      surface: SURFACE,
      version: ctx.version,
      currentVersion: CURRENT_VERSION,
      versions: VERSIONS,
      environment: DEPLOYMENT_ENVIRONMENT,
      authentication: {
        type: 'oauth2',
        flow: 'client_credentials',
        tokenUrl: `${ctx.state.baseUrl}${TOKEN_PATH}`,
        clientAuthentication: ['client_secret_basic', 'client_secret_post'],
        scopes: SCOPES,
        tokenLifetimeSeconds: o.tokenTtlSeconds,
        tenantHeader: 'x-service-tenant',
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: IDEMPOTENCY_KEY_PATTERN.source,
        requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${r.path}`),
        validitySeconds: Math.round(o.idempotencyTtlMs / 1000),
        replay: 'same key and content: the stored response with meta.replayed true',
      },
      rateLimit: { limit: o.rateLimit, windowSeconds: o.windowMs / 1000, per: 'client and tenant' },
      webhooks: {
        events: WEBHOOK_EVENTS,
        signatureHeader: WEBHOOK_SIGNATURE_HEADER,
        deliveryIdHeader: WEBHOOK_DELIVERY_HEADER,
        secretField: 'signingSecret',
      },
      stream: { kinds: ['service.started', 'connection.created'], resume: ['Last-Event-ID', 'cursor'] },
      openapi: VERSIONS.flatMap((v) => [`${BASE_PATH}/openapi/${v}.json`, `${BASE_PATH}/openapi/${v}.yaml`]),
      routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    },
  };
}
