/**
 * The Errors table of the interface as data: code -> status, default message and hint.
 * The failure envelope, the OpenAPI responses and the conformance kit's pairing check use it.
 */
export const ERROR_TABLE = {
  unauthorized: {
    status: 401,
    message: 'The call was not signed in.',
    hint: 'Request a new access token and check that it was issued for this environment.',
  },
  forbidden: {
    status: 403,
    message: 'This access may not perform the action.',
    hint: 'Check the roles and tenant releases of the access.',
  },
  not_found: {
    status: 404,
    message: 'The entry does not exist.',
    hint: 'Compare the identifier and the x-service-tenant header.',
  },
  invalid_request: {
    status: 400,
    message: 'The request is incomplete or unsuitable.',
    hint: 'Check the request against the published description (GET /api/public/v1/openapi.json).',
  },
  capability_denied: {
    status: 409,
    message: 'The capability is not released for this connection.',
    hint: 'Have the capability released for the connection.',
  },
  idempotency_conflict: {
    status: 409,
    message: 'The idempotency key was already used with different content.',
    hint: 'Use a new idempotency key for each new operation.',
  },
  idempotency_required: {
    status: 428,
    message: 'An idempotency key is mandatory for this call.',
    hint: 'Send an Idempotency-Key header (pattern ^[A-Za-z0-9._:-]{8,128}$).',
  },
  rate_limited: {
    status: 429,
    message: 'Too many calls in a short time.',
    hint: 'Wait for the Retry-After seconds, then retry with growing intervals.',
  },
  internal: {
    status: 500,
    message: 'A fault occurred on the service side.',
    hint: 'Note the request identifier (meta.requestId) and inform support.',
  },
} as const satisfies Record<string, { status: number; message: string; hint: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;
export const ERROR_CODES = Object.keys(ERROR_TABLE) as [ErrorCode, ...ErrorCode[]];
