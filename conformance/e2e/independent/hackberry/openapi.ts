// The OpenAPI 3.1 document, written by hand from the route table (the team's habit: a document checked into
// the repo, not generated from handlers), with per-version JSON and YAML files.
import { type Rec, VERSION } from './http.ts';
import { BODIES, DATA, int, LIMIT_HEADERS, obj, QUERY, ref, SCHEMAS, str } from './openapi-schemas.ts';
import { ROUTES, type Route } from './routes.ts';

function header(name: string, required: boolean, schema: Rec = str): Rec {
  return { name, in: 'header', required, schema };
}

function envelope(data: Rec): Rec {
  return obj({ ok: { const: true }, data, meta: ref('Meta') });
}

function operation(r: Route, enveloped: boolean): Rec {
  const parameters: Rec[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: str,
  }));
  if (r.auth) parameters.push(header('x-service-tenant', true));
  if (r.key) parameters.push(header('Idempotency-Key', true, { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' }));
  parameters.push(header('Service-Version', false, { type: 'string', enum: ['2026-06-12', VERSION] }));
  for (const q of QUERY[r.id] ?? []) parameters.push({ name: q, in: 'query', required: false, schema: str });
  if (r.id === 'stream') {
    parameters.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } });
    parameters.push(header('Last-Event-ID', false));
  }
  if (r.id === 'auditLog') {
    parameters.push({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } });
    parameters.push({ name: 'before', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } });
  }
  const ok =
    r.id === 'stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: str } } }
      : r.id === 'openapi' && !enveloped
        ? { description: 'the OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } }
        : r.id === 'openapi'
          ? {
              description: 'the OpenAPI document (as data)',
              content: { 'application/json': { schema: envelope({ type: 'object' }) } },
            }
          : {
              description: 'success envelope',
              content: { 'application/json': { schema: envelope(DATA[r.id] ?? { type: 'object' }) } },
            };
  const failure = { description: 'failure envelope', content: { 'application/json': { schema: ref('Failure') } } };
  const responses: Rec = { '200': ok };
  for (const s of r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '500']) {
    responses[s] = s === '429' ? { ...failure, headers: { ...LIMIT_HEADERS, 'Retry-After': int } } : failure;
  }
  if (r.auth) responses['200'] = { ...responses['200'], headers: LIMIT_HEADERS };
  const op: Rec = { operationId: r.id, summary: r.purpose, parameters, responses };
  if (r.auth) op.security = [{ oauth2: ['ncs'] }];
  else op.security = [];
  const body = BODIES[r.id];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return op;
}

export function openapiDocument(version: string = VERSION, enveloped = true): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    paths[r.path] ??= {};
    paths[r.path][r.method.toLowerCase()] = operation(r, enveloped);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (hackberry)', version },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/auth/token', scopes: { ncs: 'all' } } } },
      },
    },
  };
}

/** A YAML rendering: every scalar as a JSON (double-quoted, YAML-valid) scalar, nesting by indentation. */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => `\n${indent}-${toYaml(x, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Rec);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${toYaml(x, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}
