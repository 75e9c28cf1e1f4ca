// sorrel's OpenAPI 3.1 document, generated from the route table (as javalin-openapi generates it from the
// handlers' annotations), one per version, served as JSON and as YAML files (jackson-dataformat-yaml's layout).
import { TOKEN_PATH } from './auth.ts';
import { SCHEMAS } from './openapi-schemas.ts';
import { ROUTES, type Route } from './routes.ts';
import { type Rec, VERSION, WEBHOOK_EVENTS } from './state.ts';

const ERRORS = ['400', '401', '403', '404', '409', '428', '429', '500'];
const failure = {
  description: 'failure envelope',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
};

function envelope(data: Rec | undefined): Rec {
  return {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: { ok: { const: true }, data: data ?? { type: 'object' }, meta: { $ref: '#/components/schemas/Meta' } },
  };
}

function operation(r: Route): Rec {
  const params: Rec[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  for (const [, name] of r.path.matchAll(/\{(\w+)\}/g)) {
    params.push({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
  }
  if (r.auth) params.push({ $ref: '#/components/parameters/Tenant' });
  if (r.key) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const [name, schema] of Object.entries(r.query ?? {}))
    params.push({ name, in: 'query', required: false, schema });
  if (r.sse) params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  const ok: Rec = r.sse
    ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
    : { description: 'success envelope', content: { 'application/json': { schema: envelope(r.data) } } };
  if (r.auth)
    ok.headers = {
      'X-RateLimit-Limit': { $ref: '#/components/headers/Limit' },
      'X-RateLimit-Remaining': { $ref: '#/components/headers/Remaining' },
    };
  const responses: Rec = { '200': ok };
  for (const code of r.auth ? ERRORS : ['400', '500']) responses[code] = failure;
  if (r.auth)
    responses['429'] = { ...failure, headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } };
  const op: Rec = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/\/api\/public\/v1/, '').replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c?: string) => (c ?? '').toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    parameters: params,
    responses,
    security: r.auth ? [{ keycloak: [] }] : [],
  };
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: r.body } } };
  return op;
}

/** The document of one version; `origin` is the address it was asked at (servers and the token URL follow it). */
export function openapi(origin: string, version: string = VERSION): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    if (r.since && r.since > version) continue;
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (sorrel)', version, description: 'Javalin service, sandbox.' },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      parameters: {
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: ['2026-06-12', '2026-07-01'] },
        },
      },
      headers: {
        Limit: { schema: { type: 'integer' }, description: 'limit for the current window' },
        Remaining: { schema: { type: 'integer' }, description: 'calls left in the window' },
        RetryAfter: { schema: { type: 'integer' }, description: 'recommended wait in seconds' },
      },
      securitySchemes: {
        keycloak: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: {} } } },
      },
    },
    'x-webhook-events': [...WEBHOOK_EVENTS],
  };
}

function scalar(v: unknown): string {
  if (typeof v === 'string')
    return /^[\w./ -]*$/.test(v) && v !== '' && !/^(true|false|null|~|[\d.-]+)$/.test(v) && !v.startsWith('-')
      ? v
      : JSON.stringify(v);
  return JSON.stringify(v);
}

/** A YAML rendering (block style, JSON-quoted scalars where plain ones would be ambiguous). */
export function yaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => `\n${indent}- ${yaml(x, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Rec);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${yaml(x, `${indent}  `)}`).join('');
  }
  return ` ${scalar(v)}`;
}
