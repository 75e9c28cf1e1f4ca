// The OpenAPI 3.1 document, built from the route table and the hand-written schemas, served as JSON
// (openapi.json) and YAML (openapi.yaml): the same description in two files.
import { BASE, VERSIONS } from './http-kit.ts';
import { BODIES, DATA, SCHEMAS } from './openapi-schemas.ts';
import type { Route } from './routes.ts';
import { ROUTES } from './routes.ts';

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

const RATE_HEADERS = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'calls allowed in the sliding window' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'calls left in the window' },
  'X-RateLimit-Reset': {
    schema: { type: 'integer' },
    description: 'epoch seconds when the oldest counted call leaves the window',
  },
};

/** The audit log's per-page cap: documented as a maximum where a larger limit is refused. */
export interface AuditCap {
  max: number;
  refuse: boolean;
}

function parameters(r: Route, cap: AuditCap): unknown[] {
  const out: unknown[] = [
    { name: 'Service-Version', in: 'header', required: false, schema: { type: 'string', enum: VERSIONS } },
  ];
  if (r.auth) out.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (r.key !== 'none') {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === 'required',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 },
    });
  }
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    out.push({ name: m[1], in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } });
  if (r.operationId === 'listProviders')
    out.push({ name: 'category', in: 'query', required: false, schema: { type: 'string' } });
  if (r.operationId === 'listConnectors') {
    for (const name of ['capability', 'providerId', 'category'])
      out.push({ name, in: 'query', required: false, schema: { type: 'string' } });
  }
  if (r.operationId === 'openStream') {
    out.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } });
    out.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string', pattern: '^[0-9]+$' } });
  }
  if (r.operationId === 'getAuditLog') {
    out.push({
      name: 'limit',
      in: 'query',
      required: false,
      schema: cap.refuse
        ? { type: 'integer', minimum: 1, maximum: cap.max, default: Math.min(15, cap.max) }
        : {
            type: 'integer',
            minimum: 1,
            default: Math.min(15, cap.max),
            description: `entries per page; values above ${cap.max} are clamped`,
          },
    });
    out.push({ name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } });
  }
  return out;
}

function success(r: Route): unknown {
  if (r.operationId === 'getOpenApiJson')
    return { description: 'the OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } };
  if (r.operationId === 'getOpenApiYaml')
    return { description: 'the OpenAPI document', content: { 'application/yaml': { schema: { type: 'string' } } } };
  if (r.operationId === 'openStream') {
    return {
      description:
        'Server-Sent Events: id (sequence number), event (connection.created, connection.enabled, connection.disabled), data (JSON)',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  }
  const schema = {
    type: 'object',
    properties: {
      ok: { type: 'boolean', const: true },
      data: { $ref: `#/components/schemas/${DATA[r.operationId] ?? 'Info'}` },
      meta: { $ref: '#/components/schemas/Meta' },
    },
    required: ['ok', 'data', 'meta'],
  };
  return {
    description: 'success',
    ...(r.auth ? { headers: RATE_HEADERS } : {}),
    content: { 'application/json': { schema } },
  };
}

function operation(r: Route, cap: AuditCap): Record<string, unknown> {
  const responses: Record<string, unknown> = { '200': success(r) };
  const codes = r.auth ? Object.keys(ERRORS) : ['400', '500'];
  for (const status of codes) {
    if (status === '428' && r.key !== 'required') continue;
    responses[status] = {
      description: ERRORS[status],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const op: Record<string, unknown> = {
    operationId: r.operationId,
    summary: r.purpose,
    parameters: parameters(r, cap),
    responses,
  };
  if (!r.auth) op.security = [];
  const body = BODIES[r.operationId];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return op;
}

export function openApiDocument(origin: string, version: string, cap: AuditCap): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const path = `${BASE}${r.path}`;
    paths[path] = { ...paths[path], [r.method.toLowerCase()]: operation(r, cap) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service',
      version,
      description: 'Public interface /api/public/v1 (oak deployment).',
    },
    servers: [{ url: origin }],
    security: [{ oauth2: [] }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}/oauth/token`, scopes: {} } } },
      },
    },
  };
}

// A small YAML 1.2 emitter for openapi.yaml (the team ships no YAML package in the runtime image).
// Strings are always double-quoted in JSON form, which YAML 1.2 reads the same, so no escaping rules differ.
function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function isEmpty(v: unknown): boolean {
  return Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0;
}

function emit(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (item !== null && typeof item === 'object' && !isEmpty(item)) {
        const lines: string[] = [];
        emit(item, `${indent}  `, lines);
        // The first line of a mapping or list item goes on the dash's line.
        out.push(`${indent}- ${(lines[0] ?? '').trimStart()}`, ...lines.slice(1));
      } else out.push(`${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`);
    }
    return;
  }
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const key = JSON.stringify(k);
    if (val !== null && typeof val === 'object' && !isEmpty(val)) {
      out.push(`${indent}${key}:`);
      emit(val, `${indent}  `, out);
    } else out.push(`${indent}${key}: ${isEmpty(val) ? (Array.isArray(val) ? '[]' : '{}') : scalar(val)}`);
  }
}

export function toYaml(doc: Record<string, unknown>): string {
  const out: string[] = [];
  emit(doc, '', out);
  return `${out.join('\n')}\n`;
}
