// The OpenAPI 3.1 document, built from the route table and schemas.ts, served as JSON (openapi.json and the
// versioned download) and as YAML rendered from the same object, so the two files cannot disagree.
import { type Ctx, CURRENT_VERSION, JSON_TYPE } from './http.ts';
import { ROUTES } from './routes.ts';
import { BODIES, DATA, SCHEMAS } from './schemas.ts';

const ERROR_STATUSES = ['400', '401', '403', '404', '409', '428', '429', '500'];
const rateHeaders = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'calls allowed in the current 30 s window' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'calls left in the window' },
};

function param(name: string, where: string, schema: unknown, required = false, description?: string) {
  return { name, in: where, required, schema, ...(description ? { description } : {}) };
}

function queryParams(method: string, path: string): unknown[] {
  const op = `${method} ${path}`;
  const q = (n: string) => param(n, 'query', { type: 'string' });
  if (op === 'GET /api/public/v1/providers') return [q('category')];
  if (op === 'GET /api/public/v1/connectors') return [q('capability'), q('providerId'), q('category')];
  if (op === 'GET /api/public/v1/stream') {
    return [
      param('cursor', 'query', { type: 'integer', minimum: 0 }, false, 'last number read'),
      param(
        'Last-Event-ID',
        'header',
        { type: 'string', pattern: '^[0-9]+$' },
        false,
        'last number read; wins over cursor',
      ),
    ];
  }
  if (op === 'GET /api/public/v1/audit-log') {
    return [
      param('limit', 'query', { type: 'integer', minimum: 1, maximum: 500, default: 50 }),
      param('cursor', 'query', { type: 'string' }, false, 'nextCursor of the previous page'),
    ];
  }
  return [];
}

function operation(r: (typeof ROUTES)[number]) {
  const op = `${r.method} ${r.path}`;
  const parameters: unknown[] = [
    ...(r.path.match(/\{[^}]+\}/g) ?? []).map((p) => param(p.slice(1, -1), 'path', { type: 'string' }, true)),
  ];
  parameters.push(
    param(
      'Service-Version',
      'header',
      { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
      false,
      'optional; an unknown value is refused with 400',
    ),
  );
  if (r.auth) parameters.push(param('x-service-tenant', 'header', { type: 'string' }, true, 'tenant identifier'));
  if (r.method !== 'GET' && r.auth) {
    parameters.push(
      param(
        'Idempotency-Key',
        'header',
        { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        r.key,
        'valid 12 h; the same key with the same content replays the answer',
      ),
    );
  }
  parameters.push(...queryParams(r.method, r.path));
  let ok: unknown;
  if (r.path.endsWith('/stream'))
    ok = { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } };
  else if (r.path.endsWith('.yaml'))
    ok = { description: 'OpenAPI document', content: { 'application/yaml': { schema: { type: 'string' } } } };
  else if (r.path.includes('openapi'))
    ok = { description: 'OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } };
  else {
    const schema = {
      type: 'object',
      required: ['ok', 'data', 'meta'],
      properties: {
        ok: { const: true },
        data: DATA[op] ?? { type: 'object' },
        meta: { $ref: '#/components/schemas/Meta' },
      },
    };
    ok = {
      description: 'success',
      headers: r.auth ? rateHeaders : undefined,
      content: { 'application/json': { schema } },
    };
  }
  const responses: Record<string, unknown> = { '200': ok };
  for (const s of ERROR_STATUSES) {
    if (!r.auth && !['400', '404', '500'].includes(s)) continue;
    responses[s] = {
      description: `error ${s}`,
      headers:
        s === '429'
          ? {
              ...rateHeaders,
              'Retry-After': {
                schema: { type: 'integer', minimum: 1 },
                description: 'seconds until the window resets',
              },
            }
          : undefined,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const body = BODIES[op];
  return {
    operationId: `${r.method.toLowerCase()}${r.path.replace('/api/public/v1', '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')) || 'Root'}`,
    summary: r.purpose,
    security: r.auth ? [{ oauth2: [] }] : [],
    parameters,
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses: JSON.parse(JSON.stringify(responses)),
  };
}

export function document(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const entry = paths[r.path] ?? {};
    entry[r.method.toLowerCase()] = operation(r);
    paths[r.path] = entry;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (catalpa)', version: CURRENT_VERSION },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: '/oauth2/token',
              scopes: { 'connections.read': 'read', 'connections.write': 'write' },
            },
          },
        },
      },
    },
  };
}

export function openapiJson(ctx: Ctx, download = false): void {
  const text = JSON.stringify(document());
  ctx.res.writeHead(200, {
    'Content-Type': JSON_TYPE,
    'X-Request-Id': ctx.requestId,
    ...(download ? { 'Content-Disposition': `attachment; filename="ncs-${CURRENT_VERSION}.json"` } : {}),
  });
  ctx.res.end(text);
}

/** YAML 1.2 block style; every scalar string is double-quoted (JSON escaping is valid YAML). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((item) => `\n${indent}-${block(item, `${indent}  `)}`).join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${block(x, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}

const block = (v: unknown, indent: string): string => toYaml(v, indent);

export function openapiYaml(ctx: Ctx): void {
  const text = `${toYaml(document()).trimStart()}\n`;
  ctx.res.writeHead(200, {
    'Content-Type': 'application/yaml;charset=UTF-8',
    'X-Request-Id': ctx.requestId,
    'Content-Disposition': `attachment; filename="ncs-${CURRENT_VERSION}.yaml"`,
  });
  ctx.res.end(text);
}
