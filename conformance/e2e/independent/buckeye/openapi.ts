// The interface describing itself: the self-description, GET /info, and the OpenAPI 3.1 document built from
// the route table and the schemas, per published version (2026-06-12 has no delivery log, added in
// 2026-07-01). Served as JSON and as YAML (block style, written by `toYaml`).
import { ENVIRONMENT, TOKEN_PATH } from './auth.ts';
import { type Ctx, ok, VERSION } from './http-kit.ts';
import { KEY_PATTERN } from './idempotency.ts';
import { dataSchemas, requestSchemas, SCHEMAS } from './openapi-schemas.ts';
import { type Call, ROUTES } from './routes.ts';
import { timestamp } from './values.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const P = '/api/public/v1';
const ERRORS: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'capability_denied or idempotency_conflict',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};
const failure = (d: string) => ({
  description: d,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});
const header = (description: string) => ({ description, schema: { type: 'integer' } });
const RATE = {
  'X-RateLimit-Limit': header('bucket size'),
  'X-RateLimit-Remaining': header('calls left'),
  'X-Request-Id': { schema: { type: 'string' } },
};

function parameters(method: string, path: string, auth: boolean, key: boolean) {
  const out: unknown[] = [];
  for (const m of path.matchAll(/\{(\w+)\}/g))
    out.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  if (auth)
    out.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } });
  if (key)
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  out.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
  });
  const q = (name: string, schema: unknown, description?: string) =>
    out.push({ name, in: 'query', required: false, schema, description });
  const rel = `${method} ${path.slice(P.length)}`;
  if (rel === 'GET /providers') q('category', { type: 'string', minLength: 1 });
  if (rel === 'GET /connectors')
    for (const n of ['capability', 'providerId', 'category']) q(n, { type: 'string', minLength: 1 });
  if (rel === 'GET /connections') {
    q('limit', { type: 'integer', minimum: 1, maximum: 100 });
    q('cursor', { type: 'string' });
  }
  if (rel === 'GET /audit-log') {
    q('limit', { type: 'integer', minimum: 1, maximum: 500 });
    q('cursor', { type: 'integer', minimum: 1 }, 'continue below this seq');
  }
  if (rel === 'GET /webhook-deliveries') {
    q('webhookId', { type: 'string' }, 'only deliveries to this receiver');
    q('event', { type: 'string', enum: WEBHOOK_EVENTS });
    q('status', { type: 'string', enum: ['pending', 'succeeded', 'failed'] });
    q('limit', { type: 'integer', minimum: 1, maximum: 999 });
    q('cursor', { type: 'string' });
  }
  if (rel === 'GET /stream') {
    q('cursor', { type: 'integer', minimum: 0 }, 'last number read');
    out.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string', pattern: '^\\d+$' } });
  }
  return out;
}

/** The registered OpenAPI media types (used with the `oaiMediaTypes` choice). */
export const OAI_JSON = 'application/vnd.oai.openapi+json;version=3.1';
export const OAI_YAML = 'application/vnd.oai.openapi;version=3.1';

export function openapiDocument(version: string, origin: string, oai = false): Record<string, unknown> {
  const data = dataSchemas();
  const bodies = requestSchemas(WEBHOOK_EVENTS);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    if (r.since && r.since > version) continue;
    const rel = `${r.method} ${r.path.slice(P.length)}`;
    const responses: Record<string, unknown> = {};
    if (r.produces === 'text/event-stream') {
      responses['200'] = {
        description: 'Server-Sent Events; `id` is the message number',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      };
    } else if (r.path.includes('openapi')) {
      responses['200'] = {
        description: 'OpenAPI 3.1 document',
        content: oai
          ? { [OAI_JSON]: { schema: { type: 'object' } }, [OAI_YAML]: { schema: { type: 'string' } } }
          : { [r.produces ?? 'application/json']: { schema: { type: r.produces ? 'string' : 'object' } } },
      };
    } else {
      const schema = {
        type: 'object',
        required: ['ok', 'data', 'meta'],
        properties: {
          ok: { type: 'boolean', const: true },
          data: data[rel] ?? { type: 'object' },
          meta: { $ref: '#/components/schemas/Meta' },
        },
      };
      responses['200'] = {
        description: r.purpose,
        headers: r.auth ? RATE : undefined,
        content: { 'application/json': { schema } },
      };
      if (r.method === 'GET' && ['/providers', '/connectors', '/capabilities'].some((x) => r.path.endsWith(x))) {
        responses['304'] = { description: 'not modified (If-None-Match matched the strong ETag)' };
      }
    }
    const codes = r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '404', '500'];
    for (const c of codes) responses[c] = failure(ERRORS[c] ?? '');
    if (r.auth)
      responses['429'] = {
        ...failure(ERRORS['429'] ?? ''),
        headers: { ...RATE, 'Retry-After': header('seconds to wait') },
      };
    const op: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}${
        r.path
          .slice(P.length)
          .replace(/[{}]/g, '')
          .split(/[/.-]/)
          .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
          .join('') || 'Root'
      }`,
      summary: r.purpose,
      security: r.auth ? [{ oauth2: [] }] : [],
      parameters: parameters(r.method, r.path, r.auth, r.key === true),
      responses,
    };
    const body = bodies[rel];
    if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
    paths[r.path] = { ...paths[r.path], [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (buckeye)',
      version,
      description: `Public interface; events sent to webhooks: ${WEBHOOK_EVENTS.join(', ')}`,
    },
    servers: [{ url: origin }],
    paths,
    webhooks: {},
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: { ncs: 'the interface' } } },
        },
      },
    },
    'x-webhook-signature': { header: 'Buckeye-Signature', format: 't=<unix-seconds>,v1=<hex>' },
  };
}

export const PUBLISHED = [VERSION, '2026-06-12'];

/** Block-style YAML of a JSON value (strings always quoted, so no value is read back as another type). */
export function toYaml(doc: unknown, anchors = false): string {
  // With `anchors`, a repeated node (same content, over 40 characters of JSON) is written once with an
  // anchor and aliased after, as YAML emitters that share nodes (PyYAML, libyaml) do.
  const counts = new Map<string, number>();
  const count = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    const key = JSON.stringify(v);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    for (const x of Object.values(v)) count(x);
  };
  if (anchors) count(doc);
  const names = new Map<string, string>();
  const emit = (v: unknown, indent: string): string => {
    if (anchors && v && typeof v === 'object') {
      const key = JSON.stringify(v);
      if ((counts.get(key) ?? 0) > 1 && key.length > 40) {
        const name = names.get(key);
        if (name) return ` *${name}`;
        const fresh = `n${names.size + 1}`;
        names.set(key, fresh);
        return ` &${fresh}${block(v, indent)}`;
      }
    }
    return block(v, indent);
  };
  const block = (v: unknown, indent: string): string => {
    if (Array.isArray(v)) {
      if (v.length === 0) return ' []';
      return v.map((x) => `\n${indent}-${emit(x, `${indent}  `)}`).join('');
    }
    if (v && typeof v === 'object') {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      if (entries.length === 0) return ' {}';
      return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${emit(x, `${indent}  `)}`).join('');
    }
    return ` ${JSON.stringify(v)}`;
  };
  return `${emit(doc, '').trimStart()}\n`;
}

/** GET /api/public/v1: the self-description, from the same route table. */
export function describe(ctx: Ctx): void {
  ok(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: VERSION,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenUrl: TOKEN_PATH,
      header: 'Authorization: Bearer <token>',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${r.path}`),
      retentionHours: 72,
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}

/** GET /info: the calling access (a sample first call of the interface). */
export function info(c: Call): void {
  const client = c.state.clients.get(c.access.clientId);
  ok(c.ctx, {
    tenant: c.access.tenant,
    clientId: c.access.clientId,
    environment: ENVIRONMENT,
    purpose: client?.purpose ?? null,
    owner: client?.owner ?? null,
    expiresAt: timestamp(c.access.expiresAt),
  });
}
