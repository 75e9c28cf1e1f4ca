// The OpenAPI 3.1 document, written by hand as micronaut-openapi would generate it from the controllers:
// server base path /api/public/v1 with relative paths, per-version JSON and YAML files (.yml, its habit).
import { TOKEN_PATH } from './auth.ts';
import { BODIES, DATA, obj, PARAMS, ref, SCHEMAS, str } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';
import { type Rec, VERSIONS } from './state.ts';

/** The document of `version`; `strict`: routes newer than the version are left out (versioned controllers). */
export function openapi(version: string, strict = false): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    if (strict && r.since && r.since > version) continue;
    const rel = r.path.replace('/api/public/v1', '') || '/';
    const key = `${r.method} ${rel}`;
    const parameters: Rec[] = [...(PARAMS[key] ?? [])];
    for (const m of rel.matchAll(/\{(\w+)\}/g))
      parameters.push({ name: m[1], in: 'path', required: true, schema: str() });
    if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str() });
    if (r.keyed)
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      });
    const data = DATA[key] ?? { type: 'object' };
    const content =
      key === 'GET /stream'
        ? { 'text/event-stream': { schema: str() } }
        : {
            'application/json': {
              schema:
                key === 'GET /openapi.json'
                  ? { type: 'object' }
                  : obj({ ok: { const: true }, data, meta: ref('Meta') }),
            },
          };
    const op: Rec = {
      operationId: r.operationId,
      summary: r.purpose,
      parameters,
      responses: {
        '200': { description: 'OK', content },
        default: { description: 'Failure', content: { 'application/problem+json': { schema: ref('Failure') } } },
      },
    };
    if (BODIES[key]) op.requestBody = { required: true, content: { 'application/json': { schema: BODIES[key] } } };
    op.security = r.auth ? [{ oauth2: [] }] : [];
    paths[rel] = { ...(paths[rel] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (pawpaw)', version },
    servers: [{ url: '/api/public/v1' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } } },
      },
    },
    'x-versions': VERSIONS.map((v) => ({
      version: v,
      json: `/api/public/v1/openapi/network-connections-${v}.json`,
      yaml: `/api/public/v1/openapi/network-connections-${v}.yml`,
    })),
  };
}

/** A block-style YAML writer: strings always quoted (JSON-escaped), so no value is read back as another type. */
export function yaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) return v.length === 0 ? ' []' : v.map((x) => `\n${indent}-${yaml(x, `${indent}  `)}`).join('');
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 0) return ' {}';
    return keys.map((k) => `\n${indent}${JSON.stringify(k)}:${yaml((v as Rec)[k], `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}
