import { LIMITS } from '../../simulator/contract/limits.ts';
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import { editJson, errorCodeOf, failureOf, jsonBodyOf, withHeader, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const CAPABILITIES = `${BASE_PATH}/capabilities`;

/** Violations of the envelopes, the Errors table, the Limits and the Versioning rules. */
export const ENVELOPE_VIOLATIONS: Violation[] = [
  {
    name: 'error-status-mismatch',
    description: 'unauthorized is answered with status 403 instead of the 401 the Errors table pairs it with',
    section: 'Errors',
    catches: [
      'errors.code-status-pairing',
      'auth.missing-token',
      'auth.invalid-token',
      'discovery.auth-flags-observed',
      'auth.no-token-with-tenant',
      'responses.code-status',
      'auth.token-in-header-only',
      'versions.earlier-alike',
      'capabilities.key-neutral',
    ],
    async handle(req, next) {
      const res = await next(req);
      return errorCodeOf(res) === 'unauthorized' ? { ...res, status: 403 } : res;
    },
  },
  {
    name: 'unknown-error-code',
    description: 'validation errors carry the code validation_failed, which is not in the Errors table',
    section: 'Errors',
    catches: [
      'envelope.failure-schema-openapi',
      'errors.code-status-pairing',
      'errors.invalid-request',
      'auth.missing-tenant',
      'auth.missing-tenant-invalid-request',
      'limits.connector-id-length',
      'limits.capability-length',
      'versions.unknown-service-version',
      'limits.scope-label-length',
      'limits.connection-capabilities',
      'limits.operation-length',
      'limits.idempotency-key',
      'limits.cursor',
      'sse.malformed-cursor',
      'connections.environment-enumeration',
      'responses.code-status',
      'webhooks.registration-body',
    ],
    async handle(req, next) {
      const res = await next(req);
      return errorCodeOf(res) === 'invalid_request'
        ? editJson(res, (b) => {
            if (!b.error) return;
            b.error.code = 'validation_failed';
          })
        : res;
    },
  },
  {
    name: 'validation-500',
    description: 'an unsuitable body for POST /capabilities is answered 500 internal instead of 400 invalid_request',
    section: 'Errors',
    catches: [
      'errors.invalid-request',
      'limits.connector-id-length',
      'limits.capability-length',
      'connections.environment-enumeration',
      'responses.rate-limit-headers-uncounted',
    ],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== CAPABILITIES || errorCodeOf(res) !== 'invalid_request') return res;
      return failureOf('internal', 'The request could not be processed.');
    },
  },
  {
    name: 'error-message-missing',
    description: 'failure envelopes leave out error.message',
    section: 'Failure envelope (every error response)',
    catches: [
      'envelope.failure-schema-openapi',
      'errors.failure-envelope',
      'errors.unknown-route',
      'responses.envelope',
      'errors.internal',
      'rate-limit.retry-after',
    ],
    async handle(req, next) {
      const res = await next(req);
      return res.status >= 400 ? editJson(res, (b) => void delete b.error?.message) : res;
    },
  },
  {
    name: 'missing-request-id',
    description: 'meta.requestId is left out of every envelope',
    section: 'Meta',
    catches: [
      'envelope.failure-schema-openapi',
      'envelope.meta-fields',
      'errors.request-id',
      'envelope.response-schema-openapi',
      'responses.meta-fields',
      'errors.internal',
      'rate-limit.retry-after',
      'envelope.beyond-the-table',
    ],
    async handle(req, next) {
      return editJson(await next(req), (b) => void delete b.meta?.requestId);
    },
  },
  {
    name: 'request-ids-repeated',
    description: 'every answer carries the same requestId (body and X-Request-Id)',
    section: 'Meta',
    catches: ['envelope.meta-fields', 'errors.internal'],
    async handle(req, next) {
      const res = editJson(await next(req), (b) => {
        if (b.meta) b.meta.requestId = 'req_always_the_same';
      });
      return { ...res, headers: { ...res.headers, 'x-request-id': 'req_always_the_same' } };
    },
  },
  {
    name: 'x-request-id-of-another-call',
    description: 'the X-Request-Id header names another id than meta.requestId',
    section: 'Meta',
    catches: ['envelope.request-id-header', 'responses.request-id-header'],
    async handle(req, next) {
      const res = await next(req);
      return { ...res, headers: { ...res.headers, 'x-request-id': 'req_of_another_call' } };
    },
  },
  {
    name: 'success-without-ok',
    description: 'success envelopes leave out ok: true',
    section: 'Success envelope (every JSON success response)',
    catches: [
      'envelope.success-shape',
      'envelope.response-schema-openapi',
      'webhooks.registration',
      'responses.envelope',
      'envelope.beyond-the-table',
    ],
    async handle(req, next) {
      const res = await next(req);
      return res.status === 200 ? editJson(res, (b) => void delete b.ok) : res;
    },
  },
  {
    name: 'provider-field-missing',
    description: 'providers are listed without their summary field',
    section: 'Provider',
    catches: ['envelope.response-schema-openapi', 'envelope.response-schema-contract', 'requests.other-forms-as-route'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== `${BASE_PATH}/providers` || res.status !== 200) return res;
      return editJson(res, (b) => {
        for (const p of (b.data?.providers as Record<string, unknown>[] | undefined) ?? []) delete p.summary;
      });
    },
  },
  {
    name: 'stack-trace-in-error',
    description: 'error details carry a stack trace with source file paths',
    section: 'Errors',
    catches: ['errors.no-leaks', 'responses.no-leaks'],
    async handle(req, next) {
      const res = await next(req);
      if (res.status < 400) return res;
      return editJson(res, (b) => {
        if (!b.error) return;
        b.error.detail =
          "TypeError: Cannot read properties of undefined (reading 'tenant')\n    at authenticate (/srv/ncs/middleware/auth.ts:41:17)";
      });
    },
  },
  {
    name: 'token-echoed',
    description: 'errors repeat the Authorization header that was sent',
    section: 'Errors',
    catches: ['errors.no-leaks', 'responses.no-leaks'],
    async handle(req, next) {
      const res = await next(req);
      const sent = req.headers.authorization;
      return res.status >= 400 && sent
        ? editJson(res, (b) => {
            if (!b.error) return;
            b.error.detail = `Rejected credentials: ${sent}`;
          })
        : res;
    },
  },
  {
    name: 'limit-off-by-one',
    description: `a connectorId of ${LIMITS.connectorId.max + 1} characters is accepted (the limit is ${LIMITS.connectorId.min} to ${LIMITS.connectorId.max})`,
    section: 'Limits',
    catches: ['limits.connector-id-length'],
    async handle(req, next) {
      const body = req.method === 'POST' && req.path === CAPABILITIES ? jsonBodyOf(req) : undefined;
      const id = body?.connectorId;
      if (typeof id === 'string' && id.length === LIMITS.connectorId.max + 1)
        return next(withJsonBody(req, { ...body, connectorId: id.slice(0, LIMITS.connectorId.max) }));
      return next(req);
    },
  },
  {
    name: 'unpublished-version',
    description: 'meta.version reports 2026-07-15, which is not a published interface version',
    section: 'Versioning',
    catches: [
      'envelope.failure-schema-openapi',
      'responses.meta-fields',
      'versions.meta-version-published',
      'versions.service-version-current',
      'envelope.response-schema-openapi',
      // The answers beyond the table and the provoked 429 and 500 are held to the same meta.version rule.
      'envelope.beyond-the-table',
      'rate-limit.retry-after',
      'errors.internal',
    ],
    async handle(req, next) {
      return editJson(await next(req), (b) => {
        if (b.meta) b.meta.version = '2026-07-15';
      });
    },
  },
  {
    name: 'old-version-by-default',
    description: 'without Service-Version the earlier version 2026-06-12 answers instead of the current one',
    section: 'Versioning',
    // The plain description asked without the header (as a code generator does) is the earlier one too.
    catches: ['openapi.yaml-matches-json', 'versions.current-by-default'],
    handle(req, next) {
      return next(
        req.headers['service-version'] === undefined ? withHeader(req, 'service-version', SUPPORTED_VERSIONS[1]) : req,
      );
    },
  },
  {
    name: 'service-version-rejected',
    description: 'a Service-Version header, even with the current version, is refused with 400',
    section: 'Versioning',
    // Refusing the current version fails every call that names it, the delivery log's too; the 400s come
    // before authentication (without a token too), so their missing rate-limit headers earn nothing.
    catches: ['versions.service-version-current', 'versions.delivery-log-since-current'],
    async handle(req, next) {
      return req.headers['service-version'] !== undefined
        ? failureOf('invalid_request', 'header Service-Version is not accepted.')
        : next(req);
    },
  },
];
