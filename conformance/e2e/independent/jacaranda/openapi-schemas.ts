// Shared pieces of the OpenAPI document: schema helpers and the components (security scheme, resource schemas).

export const str = { type: 'string' };
export const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
export const obj = (props: Record<string, unknown>, required = Object.keys(props), extra = true) => ({
  type: 'object',
  properties: props,
  required,
  additionalProperties: extra,
});
/** Response headers: every answer names its request; every answer of an authenticated operation is counted. */
const hdr = (n: string) => ({ $ref: `#/components/headers/${n}` });
const counted = {
  'X-RateLimit-Limit': hdr('Limit'),
  'X-RateLimit-Remaining': hdr('Remaining'),
  'X-RateLimit-Reset': hdr('Reset'),
};
const headersOf = (auth: boolean, status: string) => ({
  'X-Request-Id': hdr('RequestId'),
  ...(auth ? counted : {}),
  ...(status === '429' ? { 'Retry-After': hdr('RetryAfter') } : {}),
});
export const ok = (data: unknown, auth = true) => ({
  description: 'success',
  headers: headersOf(auth, '200'),
  content: { 'application/json': { schema: obj({ ok: { const: true }, data, meta: ref('Meta') }) } },
});
export const failures = (auth: boolean, statuses = ['400', '401', '403', '404', '409', '428', '429', '500']) =>
  Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: 'failure',
        headers: headersOf(auth, s),
        content: { 'application/json': { schema: ref('Failure') } },
      },
    ]),
  );
export const errors = failures(true);
export const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
export const P = (name: string, where: string, schema: unknown, required = false) => ({
  name,
  in: where,
  required,
  schema,
});
export const tenant = P('x-service-tenant', 'header', str, true);
export const version = (required: boolean) =>
  P('Service-Version', 'header', { type: 'string', enum: ['2026-07-01', '2026-06-12'] }, required);
export const key = (required: boolean) =>
  P('Idempotency-Key', 'header', { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' }, required);
export const body = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });

export function op(summary: string, data: unknown, more: Record<string, unknown> = {}, auth = true) {
  const parameters = [...(auth ? [tenant] : []), ...((more.parameters as unknown[]) ?? [])];
  return {
    summary,
    ...more,
    parameters,
    ...(auth ? { security: [{ oauth2: [] }] } : { security: [] }),
    responses: auth ? { '200': ok(data), ...errors } : { '200': ok(data, false), ...failures(false, ['400']) },
  };
}

export const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export function components(tokenUrl: string) {
  const env = ENV;
  const int = (description: string) => ({ description, required: true, schema: { type: 'integer', minimum: 0 } });
  return {
    headers: {
      RequestId: { description: 'equals meta.requestId', required: true, schema: str },
      Limit: int('calls allowed in the current window (per token and tenant)'),
      Remaining: int('calls left in the current window'),
      Reset: int('seconds until the window ends'),
      RetryAfter: int('recommended wait in seconds'),
    },
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl, scopes: { 'ncs.read': 'read', 'ncs.write': 'write' } } },
      },
    },
    schemas: {
      Meta: obj(
        {
          requestId: str,
          version: str,
          at: { type: 'string', format: 'date-time' },
          idempotencyKey: str,
          replayed: { type: 'boolean' },
        },
        ['requestId', 'version', 'at'],
      ),
      Failure: obj({
        ok: { const: false },
        error: obj(
          {
            code: {
              type: 'string',
              enum: [
                'unauthorized',
                'forbidden',
                'not_found',
                'invalid_request',
                'capability_denied',
                'idempotency_conflict',
                'idempotency_required',
                'rate_limited',
                'internal',
              ],
            },
            message: str,
            detail: str,
            hint: str,
          },
          ['code', 'message'],
        ),
        meta: ref('Meta'),
      }),
      Provider: obj({ id: str, name: str, category: str, summary: str }),
      Connector: obj({
        id: str,
        providerId: str,
        name: str,
        category: str,
        capabilities: { type: 'array', items: str },
      }),
      Capability: obj({
        id: str,
        label: str,
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
      }),
      CapabilityDecision: obj({
        connectorId: str,
        capability: str,
        allowed: { type: 'boolean' },
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
        reason: str,
      }),
      Connection: obj({
        id: str,
        connectorId: str,
        environment: env,
        scopeLabel: str,
        state: { type: 'string', enum: ['pending', 'active'] },
        capabilities: {
          type: 'array',
          items: obj({ capability: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
        },
        nextStep: str,
        createdAt: { type: 'string', format: 'date-time' },
      }),
    },
  };
}
