// The OpenAPI 3.1 document, built from the route table (paths relative to the server /api/public/v1, as
// the team's gateway publishes it), and a small YAML writer for the downloadable per-version files.
import { CAPABILITIES, ENVIRONMENTS } from './catalog.ts';
import { CURRENT_VERSION, VERSIONS } from './http-util.ts';
import { BASE, ROUTES } from './routes.ts';
import { SCHEMAS } from './schemas.ts';
import { EVENT_TYPES } from './webhooks.ts';

const p = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const h = (name: string) => ({ $ref: `#/components/headers/${name}` });
const GATEWAY = { 'Request-Id': h('RequestId'), 'X-Correlation-Id': h('CorrelationId') };
const LIMITS = { 'X-RateLimit-Limit': h('RateLimitLimit'), 'X-RateLimit-Remaining': h('RateLimitRemaining') };
const failure = (description: string, headers: Record<string, unknown> = GATEWAY) => ({
  description,
  headers,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});

function operation(r: (typeof ROUTES)[number], auditMaxPage: number) {
  const params: unknown[] = [p('ServiceVersion'), p('ApiVersion')];
  if (r.auth) params.push(p('Tenant'));
  if (r.key === 'required') params.push({ ...p('IdempotencyKeyRequired') });
  if (r.key === 'optional') params.push(p('IdempotencyKey'));
  if (r.path.endsWith('/stream')) params.push(p('LastEventId'));
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
  for (const q of r.query ?? []) {
    const schema =
      r.operationId === 'GetAuditLog' && q.name === 'limit' ? { ...q.schema, maximum: auditMaxPage } : q.schema;
    params.push({ name: q.name, in: 'query', required: false, description: q.description, schema });
  }
  const ok = r.path.endsWith('/stream')
    ? {
        description: 'Server-Sent Events; one JSON object per message, `event:` its type, `id:` its number',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      }
    : r.path.endsWith('/openapi.json')
      ? { description: 'this document', content: { 'application/json': { schema: { type: 'object' } } } }
      : {
          description: 'success',
          headers: r.auth ? { ...GATEWAY, ...LIMITS } : GATEWAY,
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: '#/components/schemas/SuccessEnvelope' },
                  { type: 'object', properties: { data: r.data } },
                ],
              },
            },
          },
        };
  const responses: Record<string, unknown> = {
    '200': ok,
    '400': failure('invalid_request'),
    '500': failure('internal'),
  };
  if (r.auth)
    Object.assign(responses, {
      '401': failure('unauthorized'),
      '403': failure('forbidden', { ...GATEWAY, ...LIMITS }),
      '429': failure('rate_limited', {
        ...GATEWAY,
        ...LIMITS,
        'Retry-After': h('RetryAfter'),
        'Retry-After-Ms': h('RetryAfterMs'),
      }),
    });
  if (r.auth)
    Object.assign(responses, {
      '404': failure('not_found', { ...GATEWAY, ...LIMITS }),
      '409': failure('capability_denied or idempotency_conflict', { ...GATEWAY, ...LIMITS }),
    });
  if (r.key === 'required') responses['428'] = failure('idempotency_required', { ...GATEWAY, ...LIMITS });
  const op: Record<string, unknown> = { operationId: r.operationId, summary: r.purpose, parameters: params, responses };
  op.security = r.auth ? [{ oauth2: ['ncs.api'] }] : [];
  if (r.body)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.body}` } } },
    };
  if (r.operationId === 'CreateWebhook') op['x-webhook-events'] = EVENT_TYPES;
  return op;
}

export function openApiDocument(origin: string, version = CURRENT_VERSION, auditMaxPage = 100) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const rel = r.path.slice(BASE.length) || '/';
    paths[rel] = { ...paths[rel], [r.method.toLowerCase()]: operation(r, auditMaxPage) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (yew)',
      version,
      description: `Versions: ${VERSIONS.join(', ')}. Downloads: ${BASE}/openapi/{version}.json and .yaml.`,
    },
    servers: [{ url: BASE }],
    security: [{ oauth2: ['ncs.api'] }],
    paths,
    webhooks: {
      connectionEvent: {
        post: {
          summary: `CloudEvents 1.0 (structured mode) of one of: ${EVENT_TYPES.join(', ')}; signed in Yew-Signature`,
          requestBody: {
            content: { 'application/cloudevents+json': { schema: { $ref: '#/components/schemas/CloudEvent' } } },
          },
          responses: { '204': { description: 'accepted' } },
        },
      },
    },
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: { tokenUrl: `${origin}/connect/token`, scopes: { 'ncs.api': 'the public interface' } },
          },
        },
      },
      headers: {
        RequestId: { description: 'meta.requestId of the answer (set by the gateway)', schema: { type: 'string' } },
        CorrelationId: { description: 'W3C trace id of the call, for support', schema: { type: 'string' } },
        RateLimitLimit: { description: 'calls allowed in the current window', schema: { type: 'integer', minimum: 1 } },
        RateLimitRemaining: {
          description: 'calls left in the current window',
          schema: { type: 'integer', minimum: 0 },
        },
        RetryAfter: { description: 'recommended wait in whole seconds', schema: { type: 'integer', minimum: 1 } },
        RetryAfterMs: {
          description: 'the same wait in milliseconds (Azure convention)',
          schema: { type: 'integer', minimum: 1 },
        },
      },
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: VERSIONS },
        },
        ApiVersion: { name: 'api-version', in: 'query', required: false, schema: { type: 'string', enum: VERSIONS } },
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } },
        IdempotencyKeyRequired: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
        LastEventId: {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          schema: { type: 'string', pattern: '^\\d+$' },
        },
      },
      schemas: SCHEMAS(
        ENVIRONMENTS,
        CAPABILITIES.map((c) => c.id),
        EVENT_TYPES,
      ),
    },
  };
}

function scalar(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

/** YAML 1.2 block style; strings double-quoted (JSON escapes are valid YAML), so no value is misread. */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value
      .map((v) => `\n${indent}- ${v && typeof v === 'object' ? toYaml(v, `${indent}  `).trimStart() : scalar(v)}`)
      .join('');
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return entries
      .map(([k, v]) => {
        const nested = v && typeof v === 'object' && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
        return `\n${indent}${JSON.stringify(k)}:${nested ? toYaml(v, `${indent}  `) : ` ${v && typeof v === 'object' ? toYaml(v) : scalar(v)}`}`;
      })
      .join('');
  }
  return scalar(value);
}
