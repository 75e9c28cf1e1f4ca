// The OpenAPI 3.1 document, built from the route table and openapi-schemas.ts, served as openapi.json and as
// downloadable files per version (/openapi/<version>.json and .yaml). The 2026-06-12 file predates the
// delivery log, so it leaves those two routes out.
import { TOKEN_PATH } from './auth.ts';
import { CURRENT_VERSION, PUBLISHED_VERSIONS } from './http-kit.ts';
import { bodies, data, obj, ref, schemas } from './openapi-schemas.ts';
import { ROUTES, type Route } from './route-table.ts';

const QUERY: Record<string, string[]> = {
  providers: ['category'],
  connectors: ['capability', 'providerId', 'category'],
};
const ERRORS = ['400', '401', '403', '404', '409', '428', '429', '500'];
const RATE_HEADERS = ['Limit', 'Remaining', 'Reset'];
const hdr = (name: string) => ({ $ref: `#/components/headers/${name}` });
const int = (description: string, minimum: number) => ({ description, schema: { type: 'integer', minimum } });

function operation(r: Route, versionEverywhere: boolean): Record<string, unknown> {
  const parameters: unknown[] = [
    { $ref: `#/components/parameters/${r.auth || versionEverywhere ? 'ServiceVersion' : 'ServiceVersionOptional'}` },
  ];
  if (r.auth) parameters.push({ $ref: '#/components/parameters/Tenant' });
  if (r.key !== 'none')
    parameters.push({
      in: 'header',
      name: 'Idempotency-Key',
      required: r.key === 'required',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  for (const q of QUERY[r.id] ?? [])
    parameters.push({ in: 'query', name: q, required: false, schema: { type: 'string' } });
  for (const m of r.path.matchAll(/\{([^}]+)\}/g))
    parameters.push({ in: 'path', name: m[1], required: true, schema: { type: 'string' } });
  if (r.id === 'audit-log')
    parameters.push({
      in: 'query',
      name: 'limit',
      schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    });
  if (r.id === 'stream') {
    parameters.push(
      { in: 'query', name: 'cursor', schema: { type: 'integer', minimum: 0 } },
      { in: 'header', name: 'Last-Event-ID', schema: { type: 'string', pattern: '^[0-9]+$' } },
    );
  }
  const ok =
    r.id === 'stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : r.id === 'openapi' || r.id === 'openapi-file'
        ? {
            description: 'the OpenAPI 3.1 description',
            content: {
              [r.path.endsWith('.yaml') ? 'application/yaml' : 'application/json']: { schema: { type: 'object' } },
            },
          }
        : {
            description: 'success',
            content: {
              'application/json': {
                schema: obj({ ok: { const: true }, data: data[r.id] ?? { type: 'object' }, meta: ref('Meta') }, [
                  'ok',
                  'data',
                  'meta',
                ]),
              },
            },
          };
  // Counted (authenticated) answers carry the rate-limit headers; every answer carries X-Request-Id.
  const headers: Record<string, unknown> = { 'X-Request-Id': hdr('XRequestId') };
  if (r.auth) for (const h of RATE_HEADERS) headers[`X-RateLimit-${h}`] = hdr(`XRateLimit${h}`);
  const responses: Record<string, unknown> = { '200': { ...ok, headers } };
  for (const code of r.auth ? ERRORS : ['400', '500']) {
    responses[code] = { $ref: `#/components/responses/${code === '429' ? 'RateLimited' : 'Failure'}` };
  }
  const op: Record<string, unknown> = {
    // One id per operation: the file routes share a route id, so their file name completes it.
    operationId: `${r.id}${r.id === 'openapi-file' ? `-${r.path.split('/').pop()}` : ''}`.replace(
      /[-.](.)/g,
      (_, c: string) => c.toUpperCase(),
    ),
    summary: r.purpose,
    parameters,
    responses,
  };
  if (r.auth) op.security = [{ oauth2: [] }];
  else op.security = [];
  const body = bodies[r.id];
  if (body !== undefined) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return op;
}

const SINCE_CURRENT = ['deliveries', 'redeliver'];

export function openapi(version: string = CURRENT_VERSION, versionEverywhere = false): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    if (version !== CURRENT_VERSION && SINCE_CURRENT.includes(r.id)) continue;
    const item = paths[r.path] ?? {};
    item[r.method.toLowerCase()] = operation(r, versionEverywhere);
    paths[r.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (aspen)', version },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas,
      parameters: {
        ServiceVersion: {
          in: 'header',
          name: 'Service-Version',
          required: true,
          description: 'missing or unknown: 400',
          schema: { type: 'string', enum: PUBLISHED_VERSIONS },
        },
        ServiceVersionOptional: {
          in: 'header',
          name: 'Service-Version',
          required: false,
          description: 'unknown: 400',
          schema: { type: 'string', enum: PUBLISHED_VERSIONS },
        },
        Tenant: { in: 'header', name: 'x-service-tenant', required: true, schema: { type: 'string' } },
      },
      responses: {
        Failure: {
          description: 'failure envelope (authenticated answers counted in the window carry X-RateLimit-*)',
          headers: {
            'X-Request-Id': hdr('XRequestId'),
            ...Object.fromEntries(RATE_HEADERS.map((h) => [`X-RateLimit-${h}`, hdr(`XRateLimit${h}`)])),
          },
          content: { 'application/json': { schema: ref('Failure') } },
        },
        RateLimited: {
          description: 'rate_limited: wait Retry-After seconds',
          headers: {
            'Retry-After': hdr('RetryAfter'),
            'X-Request-Id': hdr('XRequestId'),
            ...Object.fromEntries(RATE_HEADERS.map((h) => [`X-RateLimit-${h}`, hdr(`XRateLimit${h}`)])),
          },
          content: { 'application/json': { schema: ref('Failure') } },
        },
      },
      headers: {
        XRequestId: {
          description: 'equals meta.requestId (a ULID)',
          schema: { type: 'string', pattern: '^[0-9A-HJKMNP-TV-Z]{26}$' },
        },
        XRateLimitLimit: int('calls allowed in the sliding window (per token and tenant)', 1),
        XRateLimitRemaining: int('calls left in the window', 0),
        XRateLimitReset: int('seconds until the oldest counted call leaves the window', 1),
        RetryAfter: { ...int('seconds to wait before retrying', 1), required: true },
      },
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } } },
      },
    },
  };
}

/** A downloadable file `<version>.json|yaml` of the description, or undefined for an unknown name. */
export function openapiFile(path: string, versionEverywhere = false): { type: string; text: string } | undefined {
  const m = /\/openapi\/([0-9-]+)\.(json|yaml)$/.exec(path);
  if (m === null || !PUBLISHED_VERSIONS.includes(m[1] ?? '')) return undefined;
  const doc = openapi(m[1], versionEverywhere);
  if (m[2] === 'yaml') return { type: 'application/yaml; charset=utf-8', text: toYaml(doc) };
  return { type: 'application/json; charset=utf-8', text: JSON.stringify(doc, null, 2) };
}

// A small YAML 1.2 emitter for the downloadable file (no dependency): block mappings and sequences, every
// string double-quoted in JSON syntax (a YAML double-quoted scalar reads it unchanged), keys plain where safe.
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

function key(k: string): string {
  return PLAIN_KEY.test(k) && !RESERVED.test(k) ? k : JSON.stringify(k);
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function isEmpty(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return v !== null && typeof v === 'object' && Object.keys(v).length === 0;
}

function block(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    const lines: string[] = [];
    for (const item of v) {
      if (item !== null && typeof item === 'object' && !isEmpty(item)) {
        const inner = block(item, `${indent}  `);
        lines.push(`${indent}- ${(inner[0] ?? '').trimStart()}`, ...inner.slice(1));
      } else lines.push(`${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`);
    }
    return lines;
  }
  const lines: string[] = [];
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (val === undefined) continue;
    if (val !== null && typeof val === 'object' && !isEmpty(val)) {
      lines.push(`${indent}${key(k)}:`, ...block(val, `${indent}  `));
    } else lines.push(`${indent}${key(k)}: ${isEmpty(val) ? (Array.isArray(val) ? '[]' : '{}') : scalar(val)}`);
  }
  return lines;
}

export function toYaml(doc: Record<string, unknown>): string {
  return `${block(doc, '').join('\n')}\n`;
}
