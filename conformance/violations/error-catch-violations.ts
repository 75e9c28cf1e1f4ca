import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { defaultAccess } from './default-access.ts';
import { editJson, errorCodeOf, failureOf, jsonBodyOf, withHeader } from './json-edit.ts';
import type { Violation } from './types.ts';

const CAPABILITIES = `${BASE_PATH}/capabilities`;
const isInterface = (path: string) => path.startsWith(`${BASE_PATH}/`) || path === BASE_PATH;

/** Violations of the Errors table's pairings and of authentication that only a provoked error shows. */
export const ERROR_CATCH_VIOLATIONS: Violation[] = [
  {
    name: 'not-found-hint-names-owner',
    description:
      'a 404 answered to a tenant other than the first names the first tenant in its hint ("the entry belongs to tenant …"): the owner of an entry another tenant asked for',
    section: 'Errors',
    catches: ['errors.not-found-names-no-other-tenant'],
    async handle(req, next, core) {
      const res = await next(req);
      const home = (await defaultAccess(core)).tenant;
      const tenant = req.headers['x-service-tenant'];
      if (res.status !== 404 || !tenant || tenant === home) return res;
      return editJson(res, (b) => {
        if (b.error) b.error.hint = `The entry belongs to tenant ${home}; compare identifier and tenant header.`;
      });
    },
  },
  {
    name: 'gateway-request-line-414',
    description:
      "a GET whose query string is longer than 300 characters is answered 414 with the failure envelope (code invalid_request): the gateway's own limit on the request line, a status none of the interface's endpoints answers",
    section: 'Endpoints',
    catches: ['generated.probes-list-providers', 'generated.probes-list-connectors', 'responses.code-status'],
    async handle(req, next) {
      const query = new URLSearchParams(
        Object.entries(req.query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => [k, x])),
      ).toString();
      if (req.method !== 'GET' || query.length <= 300 || !isInterface(req.path)) return next(req);
      return failureOf('invalid_request', 'The request line is too long.', 414);
    },
  },
  {
    name: 'alt-foreign-tenant-unauthorized',
    description:
      'at the alternate address a valid token with a tenant it is not released for answers 401 unauthorized (the main address: 403 forbidden)',
    section: 'Errors',
    catches: ['errors.forbidden-tenant'],
    async handle(req, next, _core, base) {
      const res = await next(req);
      return base === 'alt' && errorCodeOf(res) === 'forbidden'
        ? failureOf('unauthorized', 'The access token is not valid for this tenant.')
        : res;
    },
  },
  {
    name: 'not-found-as-invalid-request',
    description: 'a 404 carries error.code invalid_request instead of not_found (code and status disagree)',
    section: 'Errors',
    catches: [
      'responses.code-status',
      'errors.not-found',
      'errors.unknown-route',
      'versions.delivery-log-since-current',
      'tenants.foreign-entry-not-found',
    ],
    async handle(req, next) {
      const res = await next(req);
      return errorCodeOf(res) === 'not_found'
        ? editJson(res, (b) => {
            if (b.error) b.error.code = 'invalid_request';
          })
        : res;
    },
  },
  {
    name: 'refused-body-sent-back',
    description:
      'an invalid_request on POST /capabilities lists every field and value of the refused body in error.detail',
    section: 'Errors',
    catches: ['responses.error-keeps-body'],
    async handle(req, next) {
      const res = await next(req);
      const sent = req.method === 'POST' && req.path === CAPABILITIES ? jsonBodyOf(req) : undefined;
      if (!sent || errorCodeOf(res) !== 'invalid_request') return res;
      // The framework's validation error, passed through with the input it refused.
      return editJson(res, (b) => {
        if (b.error)
          b.error.detail = `input: ${Object.entries(sent)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(' ')}`;
      });
    },
  },
  {
    name: 'json-charset-refused',
    description:
      'POST /capabilities with Content-Type application/json; charset=utf-8 is refused 400 (only bare application/json is JSON)',
    section: 'POST /api/public/v1/capabilities',
    catches: ['requests.json-with-charset'],
    async handle(req, next) {
      // A hand-written content-type check (an exact string comparison) after the rate limiter counted the call.
      const type = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || req.path !== CAPABILITIES || !/charset/i.test(type)) return next(req);
      const counted = await next(req);
      const refusal = failureOf('invalid_request', 'Content-Type must be application/json.');
      return { ...refusal, headers: { ...counted.headers, ...refusal.headers } };
    },
  },
  {
    name: 'large-body-413',
    description: 'a POST body over 2 KiB is refused 413 (a gateway default), though every field is within its limit',
    section: 'Limits',
    catches: ['requests.largest-body', 'responses.code-status'],
    async handle(req, next) {
      if (req.method !== 'POST' || (req.body?.byteLength ?? 0) <= 2048) return next(req);
      const counted = await next(req);
      const refusal = failureOf('invalid_request', 'Request entity too large.', 413);
      return { ...refusal, headers: { ...counted.headers, ...refusal.headers } };
    },
  },
  {
    name: 'foreign-tenant-served',
    description:
      "a tenant the access is not released for is served as the fixtures' first tenant instead of 403 forbidden",
    section: 'Errors',
    catches: ['errors.forbidden-tenant'],
    async handle(req, next, core) {
      const res = await next(req);
      if (errorCodeOf(res) !== 'forbidden' || !req.headers['x-service-tenant']) return res;
      return next(withHeader(req, 'x-service-tenant', (await defaultAccess(core)).tenant));
    },
  },
  {
    name: 'capability-denied-as-forbidden',
    description: 'booking a capability that is not released answers 403 forbidden instead of 409 capability_denied',
    section: 'Errors',
    catches: ['errors.capability-denied'],
    async handle(req, next) {
      const res = await next(req);
      return errorCodeOf(res) === 'capability_denied'
        ? editJson({ ...res, status: 403 }, (b) => {
            if (b.error) b.error.code = 'forbidden';
          })
        : res;
    },
  },
  {
    name: 'internal-as-503',
    description: 'a fault on the service side answers status 503 (error.code internal) instead of 500',
    section: 'Errors',
    catches: ['errors.internal', 'responses.code-status'],
    async handle(req, next) {
      const res = await next(req);
      return errorCodeOf(res) === 'internal' ? { ...res, status: 503 } : res;
    },
  },
  {
    name: 'tenant-header-bypass',
    description: 'a call with x-service-tenant but without Authorization is served (as the default client)',
    section: 'Required on every authenticated call',
    // auth.missing-token sends a tenant header in the other places (the alternate address, the second tenant).
    catches: ['auth.no-token-with-tenant', 'versions.earlier-alike', 'auth.missing-token'],
    async handle(req, next, core) {
      if (!isInterface(req.path) || req.headers.authorization !== undefined || !req.headers['x-service-tenant'])
        return next(req);
      return next(withHeader(req, 'authorization', `Bearer ${(await defaultAccess(core)).token}`));
    },
  },
  {
    name: 'unknown-connector-allowed',
    description: 'a capability check for an unknown connector answers a decision "allowed" instead of not_found',
    section: 'POST /api/public/v1/capabilities',
    catches: ['capabilities.unknown-connector'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== CAPABILITIES || errorCodeOf(res) !== 'not_found') return res;
      const body = JSON.parse(res.body ?? '{}') as { meta: unknown };
      return {
        status: 200,
        headers: res.headers,
        body: JSON.stringify({
          ok: true,
          data: {
            decision: {
              connectorId: 'unknown',
              capability: 'unknown',
              allowed: true,
              critical: false,
              idempotencyRequired: false,
              reason: 'allowed',
            },
            environment: 'sandbox',
          },
          meta: body.meta,
        }),
      };
    },
  },
  {
    name: 'idempotency-required-as-400',
    description:
      'a missing Idempotency-Key answers status 400 with error.code idempotency_required (the table pairs it with 428)',
    section: 'Errors',
    catches: ['responses.code-status', 'idempotency.required', 'limits.idempotency-key', 'webhooks.redelivery'],
    async handle(req, next) {
      const res = await next(req);
      return errorCodeOf(res) === 'idempotency_required' ? { ...res, status: 400 } : res;
    },
  },
  {
    name: 'decision-for-another-capability',
    description: 'a capability decision names another capability than the one asked (a decision kept per connector)',
    section: 'POST /api/public/v1/capabilities',
    catches: ['capabilities.decision-for-asked'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== CAPABILITIES || res.status !== 200) return res;
      return editJson(res, (b) => {
        const d = (b.data as { decision?: { capability?: unknown } } | undefined)?.decision;
        if (d && typeof d.capability === 'string') d.capability = `${d.capability}.cached`;
      });
    },
  },
  {
    name: 'every-capability-allowed',
    description: 'every capability check is decided "allowed", also of a capability the connector does not offer',
    section: 'POST /api/public/v1/capabilities',
    catches: ['capabilities.unoffered-not-allowed'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== CAPABILITIES || res.status !== 200) return res;
      return editJson(res, (b) => {
        const d = (b.data as { decision?: { allowed?: unknown } } | undefined)?.decision;
        if (d) d.allowed = true;
      });
    },
  },
];
