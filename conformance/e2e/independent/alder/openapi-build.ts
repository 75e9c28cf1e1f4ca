// The building blocks of alder's OpenAPI operations: every authenticated operation documents the statuses the
// interface allows with the failure envelope narrowed to the codes of that status, and its limit headers.
import { SCHEMAS } from './openapi-schemas.ts';

export const B = '/api/public/v1';
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const p = (name: string) => ({ $ref: `#/components/parameters/${name}` });
export const h = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const str = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
export const LIMIT_HEADERS = {
  'X-RateLimit-Limit': h('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': h('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': h('X-RateLimit-Reset'),
  'X-Request-Id': h('X-Request-Id'),
};

const CODES_BY_STATUS: Record<string, string[]> = {
  '400': ['invalid_request'],
  '401': ['unauthorized'],
  '403': ['forbidden'],
  '404': ['not_found'],
  '409': ['capability_denied', 'idempotency_conflict'],
  '428': ['idempotency_required'],
  '429': ['rate_limited'],
  '500': ['internal'],
};

export function failure(status: string, auth: boolean) {
  const headers: Record<string, unknown> = { 'X-Request-Id': h('X-Request-Id') };
  if (auth && status !== '401') Object.assign(headers, LIMIT_HEADERS);
  if (status === '429') headers['Retry-After'] = h('Retry-After');
  const schema = {
    allOf: [ref('Failure'), { properties: { error: { properties: { code: { enum: CODES_BY_STATUS[status] } } } } }],
  };
  return {
    description: `failure (${CODES_BY_STATUS[status]?.join(', ')})`,
    headers,
    content: { 'application/json': { schema } },
  };
}

export function success(data: Record<string, unknown>, required: string[], auth: boolean, paged = false) {
  const headers: Record<string, unknown> = auth ? { ...LIMIT_HEADERS } : { 'X-Request-Id': h('X-Request-Id') };
  if (paged) headers.Link = h('Link');
  const schema = {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: {
      ok: { type: 'boolean', const: true },
      data: { type: 'object', required, properties: data },
      meta: ref('Meta'),
    },
  };
  return { description: 'success', headers, content: { 'application/json': { schema } } };
}

interface Op {
  id: string;
  summary: string;
  auth: boolean;
  key?: boolean;
  params?: unknown[];
  body?: Record<string, unknown>;
  ok: ReturnType<typeof success> | Record<string, unknown>;
}

export function operation(op: Op) {
  const statuses = op.auth ? ['400', '401', '403', '404', '409', '429', '500'] : ['400', '500'];
  if (op.key) statuses.splice(5, 0, '428');
  const parameters = [
    p('ServiceVersion'),
    ...(op.auth ? [p('Tenant')] : []),
    ...(op.key ? [p('IdempotencyKey')] : []),
    ...(op.params ?? []),
  ];
  return {
    operationId: op.id,
    summary: op.summary,
    security: op.auth ? [{ oauth2: [] }] : [],
    parameters,
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    responses: { '200': op.ok, ...Object.fromEntries(statuses.map((s) => [s, failure(s, op.auth)])) },
  };
}

export const list = (name: string, item: string, paged = true) =>
  success(
    { count: { type: 'integer', minimum: 0 }, [name]: { type: 'array', items: ref(item) } },
    ['count', name],
    true,
    paged,
  );
export const query = (name: string, schema: unknown, description?: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
export const pathId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } };
export const PAGING = [p('Page'), p('PerPage')];
export const one = (name: string) =>
  success(
    { ...(SCHEMAS[name] as { properties: Record<string, unknown> }).properties },
    (SCHEMAS[name] as { required: string[] }).required,
    true,
  );
