// The OpenAPI 3.1 document generated from the route table, served as JSON and as downloadable JSON and
// YAML files per version (/openapi/2026-07-01.json, /openapi/2026-06-12.yaml).
import { BODIES, DATA, type Json, obj, ref, SCHEMAS, s } from './openapi-schemas.ts';
import { routesFor } from './routes.ts';
import type { App } from './types.ts';
import { ApiError, type Ctx, VERSIONS } from './util.ts';

export function buildOpenApi(app: App, origin: string, version: string): Json {
  const paths: Json = {};
  for (const r of routesFor(version)) {
    const key = `${r.method} ${r.path}`;
    const params: Json[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: s('string'),
    }));
    if (r.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: s('string') });
    if (r.key !== 'none') {
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: r.key === 'required',
        schema: s('string', { pattern: '^[A-Za-z0-9._:-]{8,128}$' }),
      });
    }
    if (r.path.endsWith('/stream')) {
      params.push({ name: 'cursor', in: 'query', required: false, schema: s('integer', { minimum: 0 }) });
      params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: s('string') });
    }
    if (r.path.endsWith('/audit-log'))
      params.push({ name: 'limit', in: 'query', schema: s('integer', { minimum: 1, maximum: 500 }) });
    if (r.path.endsWith('/providers')) params.push({ name: 'category', in: 'query', schema: s('string') });
    if (r.path.endsWith('/connectors') && r.method === 'GET') {
      for (const n of ['capability', 'providerId', 'category'])
        params.push({ name: n, in: 'query', schema: s('string') });
    }
    const content = r.path.endsWith('/stream')
      ? { 'text/event-stream': { schema: s('string') } }
      : r.raw
        ? { 'application/json': { schema: s('object') }, 'application/yaml': { schema: s('string') } }
        : {
            'application/json': {
              schema: obj(
                { ok: { type: 'boolean', enum: [true] }, data: DATA[key] ?? s('object'), meta: ref('Meta') },
                ['ok', 'data', 'meta'],
              ),
            },
          };
    const responses: Json = { '200': { description: 'Success', content } };
    if (!r.raw || r.path.endsWith('/stream')) {
      for (const code of r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '404', '500']) {
        responses[code] = { description: 'Failure', content: { 'application/json': { schema: ref('Failure') } } };
      }
    }
    const op: Json = {
      operationId: `${r.method.toLowerCase()}${
        r.path
          .replace('/api/public/v1', '')
          .replace(/[{}]/g, '')
          .split(/[/.-]/)
          .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
          .join('') || 'Root'
      }`,
      summary: r.purpose,
      parameters: params,
      responses,
      security: r.auth ? [{ oauth2: ['ncs.api'] }] : [],
    };
    const body = BODIES[key];
    if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
    const item = (paths[r.path] ?? {}) as Json;
    item[r.method.toLowerCase()] = op;
    paths[r.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (ironbark)', version, description: 'Public interface /api/public/v1' },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: { tokenUrl: `${origin}${app.tokenPath}`, scopes: { 'ncs.api': 'the public interface' } },
          },
        },
      },
    },
  };
}

export function openapiJson(app: App, ctx: Ctx): void {
  const text = JSON.stringify(buildOpenApi(app, ctx.origin, ctx.version), null, 2);
  ctx.res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
    ...ctx.headers,
  });
  ctx.res.end(text);
}

export function openapiFile(app: App, ctx: Ctx, params: Record<string, string>): void {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml|yml)$/.exec(params.file ?? '');
  const version = m?.[1];
  if (!m || !version || !(VERSIONS as readonly string[]).includes(version)) {
    throw new ApiError(
      'not_found',
      'No such OpenAPI file',
      `one of ${VERSIONS.flatMap((v) => [`${v}.json`, `${v}.yaml`]).join(', ')}`,
    );
  }
  const doc = buildOpenApi(app, ctx.origin, version);
  const yaml = m[2] !== 'json';
  ctx.res.writeHead(200, {
    'content-type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="ncs-openapi-${version}.${yaml ? 'yaml' : 'json'}"`,
    'x-request-id': ctx.requestId,
    ...ctx.headers,
  });
  ctx.res.end(yaml ? `${toYaml(doc).trimStart()}\n` : JSON.stringify(doc, null, 2));
}

function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return v.map((x) => `\n${indent}- ${toYaml(x, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Json);
    if (entries.length === 0) return '{}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}: ${toYaml(x, `${indent}  `)}`).join('');
  }
  return JSON.stringify(v);
}
