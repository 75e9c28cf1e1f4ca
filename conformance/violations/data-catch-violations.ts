import { ENVIRONMENTS } from '../../simulator/contract/environment.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { PlainResponse } from '../../simulator/index.ts';
import { editJson, jsonBodyOf, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const PROVIDERS = `${BASE_PATH}/providers`;
const CONNECTORS = `${BASE_PATH}/connectors`;
const CAPABILITIES = `${BASE_PATH}/capabilities`;
const CONNECTIONS = `${BASE_PATH}/connections`;
const KEYS = `${BASE_PATH}/idempotency-keys`;
const WEBHOOKS = `${BASE_PATH}/webhooks`;
const is = (method: string, path: string) => (req: { method: string; path: string }) =>
  req.method === method && req.path === path;

/** The answer with its headers changed by `edit`. */
const withHeaders = (res: PlainResponse, edit: (h: Record<string, string>) => void): PlainResponse => {
  const headers = { ...res.headers };
  edit(headers);
  return { ...res, headers };
};

/** Violations of list answers, filters, the Connection and key records, and response headers. */
export const DATA_CATCH_VIOLATIONS: Violation[] = [
  {
    name: 'creation-keeps-two-capabilities',
    description:
      'POST /connections books only the first two capabilities of a longer list (a two-slot insert from an early release) and answers with those',
    section: 'POST /api/public/v1/connections',
    catches: ['generated.request-echo'],
    handle(req, next) {
      const body = is('POST', CONNECTIONS)(req) ? jsonBodyOf(req) : undefined;
      const caps = body?.capabilities;
      if (!body || !Array.isArray(caps) || caps.length < 3 || caps.length > 24) return next(req);
      return next(withJsonBody(req, { ...body, capabilities: caps.slice(0, 2) }));
    },
  },
  {
    name: 'scope-label-astral-replaced',
    description:
      'a scopeLabel is stored in a three-byte "utf8" column: characters beyond U+FFFF (an emoji) come back as U+FFFD',
    section: 'Connection',
    catches: ['generated.request-echo'],
    handle(req, next) {
      const body = is('POST', CONNECTIONS)(req) ? jsonBodyOf(req) : undefined;
      const label = body?.scopeLabel;
      if (!body || typeof label !== 'string' || !/[\u{10000}-\u{10FFFF}]/u.test(label)) return next(req);
      return next(withJsonBody(req, { ...body, scopeLabel: label.replace(/[\u{10000}-\u{10FFFF}]/gu, '\uFFFD') }));
    },
  },
  {
    name: 'filtered-connectors-capability-dropped',
    description: "GET /connectors?providerId= lists each connector without its last capability (a join's off-by-one)",
    section: 'GET /api/public/v1/connectors',
    catches: ['catalog.filters'],
    async handle(req, next) {
      const res = await next(req);
      return is('GET', CONNECTORS)(req) && res.status === 200 && req.query.providerId !== undefined
        ? editJson(res, (b) => {
            for (const c of (b.data?.connectors ?? []) as { capabilities?: unknown }[])
              if (Array.isArray(c.capabilities) && c.capabilities.length > 1)
                c.capabilities = c.capabilities.slice(0, -1);
          })
        : res;
    },
  },
  {
    name: 'count-off-by-one',
    description: 'data.count of GET /providers is one more than the providers listed',
    section: 'GET /api/public/v1/providers',
    catches: ['catalog.count-matches', 'catalog.filters', 'requests.other-forms-as-route'],
    async handle(req, next) {
      const res = await next(req);
      return is('GET', PROVIDERS)(req) && res.status === 200
        ? editJson(res, (b) => {
            if (!b.data) return;
            b.data.count = (b.data.count as number) + 1;
          })
        : res;
    },
  },
  {
    name: 'category-filter-ignored',
    description: 'GET /providers ignores ?category= and lists every provider',
    section: 'GET /api/public/v1/providers',
    catches: ['catalog.filters'],
    handle(req, next) {
      if (!is('GET', PROVIDERS)(req)) return next(req);
      const { category: _category, ...query } = req.query;
      return next({ ...req, query });
    },
  },
  {
    name: 'provider-filter-ignored',
    description: 'GET /connectors ignores ?providerId= and lists every connector',
    section: 'GET /api/public/v1/connectors',
    catches: ['catalog.filters'],
    handle(req, next) {
      if (!is('GET', CONNECTORS)(req)) return next(req);
      const { providerId: _providerId, ...query } = req.query;
      return next({ ...req, query });
    },
  },
  {
    name: 'empty-list-answered-204',
    description:
      'a list that comes out empty (GET /connectors with a filter nothing matches) is answered 204 without a body',
    section: 'Endpoints',
    catches: ['catalog.filters'],
    async handle(req, next) {
      const res = await next(req);
      if (!is('GET', CONNECTORS)(req) || res.status !== 200 || !res.body) return res;
      const data = (JSON.parse(res.body) as { data?: { connectors?: unknown[] } }).data;
      if (data?.connectors?.length !== 0) return res;
      const { 'content-type': _type, 'content-length': _length, ...headers } = res.headers;
      return { status: 204, headers };
    },
  },
  {
    name: 'json-as-text-plain',
    description: 'JSON answers of the interface are served as text/plain',
    section: 'Success envelope (every JSON success response)',
    catches: ['errors.internal', 'responses.json-content-type'],
    async handle(req, next) {
      const res = await next(req);
      return /^application\/json/.test(res.headers['content-type'] ?? '') && req.path !== `${BASE_PATH}/openapi.json`
        ? withHeaders(res, (h) => {
            h['content-type'] = 'text/plain; charset=utf-8';
          })
        : res;
    },
  },
  {
    name: 'rate-limit-headers-missing-on-posts',
    description: 'answers to POST calls carry no X-RateLimit-Limit and X-RateLimit-Remaining (GET answers still do)',
    section: 'Limits',
    catches: [
      'responses.rate-limit-headers',
      'responses.rate-limit-headers-uncounted',
      'responses.rate-limit-headers-beyond',
      'rate-limit.headers',
    ],
    async handle(req, next) {
      const res = await next(req);
      return req.method === 'POST'
        ? withHeaders(res, (h) => {
            delete h['x-ratelimit-limit'];
            delete h['x-ratelimit-remaining'];
          })
        : res;
    },
  },
  {
    name: 'self-description-example-client-secret',
    description:
      "the public self-description's authentication object shows an example client with its secret written out (copied from a staging configuration)",
    section: 'Rules for credentials',
    catches: ['responses.no-leaks', 'requests.other-forms-as-route'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== BASE_PATH || res.status !== 200) return res;
      return editJson(res, (b) => {
        const auth = (b.data as { authentication?: Record<string, unknown> } | undefined)?.authentication;
        if (auth) auth.exampleClient = { clientId: 'network-integrator', clientSecret: 'ni-live-7c2e9f4a1b6d' };
      });
    },
  },
  {
    name: 'delivery-log-without-rate-limit-headers',
    description:
      "a receiver's delivery log answers without X-RateLimit-Limit and X-RateLimit-Remaining (served by a reporting service behind the gateway's counter)",
    section: 'Limits',
    catches: ['responses.rate-limit-headers-beyond'],
    async handle(req, next) {
      const res = await next(req);
      return req.method === 'GET' && /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/.test(req.path)
        ? withHeaders(res, (h) => {
            delete h['x-ratelimit-limit'];
            delete h['x-ratelimit-remaining'];
          })
        : res;
    },
  },
  {
    name: 'connection-created-at-epoch',
    description: 'POST /connections answers createdAt as epoch milliseconds instead of a date-time',
    section: 'Connection',
    catches: ['connections.schema', 'envelope.response-schema-openapi'],
    async handle(req, next) {
      const res = await next(req);
      return is('POST', CONNECTIONS)(req) && res.status === 200
        ? editJson(res, (b) => {
            if (!b.data) return;
            b.data.createdAt = Date.parse(String(b.data.createdAt));
          })
        : res;
    },
  },
  {
    name: 'environment-outside-enumeration-accepted',
    description:
      'an environment outside development, sandbox, pilot, production is taken as sandbox instead of refused',
    section: 'Environment (enumeration)',
    catches: ['connections.environment-enumeration'],
    handle(req, next) {
      const body =
        req.method === 'POST' && (req.path === CONNECTIONS || req.path === CAPABILITIES) ? jsonBodyOf(req) : undefined;
      if (!body || body.environment === undefined || (ENVIRONMENTS as readonly unknown[]).includes(body.environment))
        return next(req);
      return next(withJsonBody(req, { ...body, environment: 'sandbox' }));
    },
  },
  {
    name: 'pilot-connection-bound-to-sandbox',
    description: 'POST /connections with environment pilot creates a sandbox connection (answered as such)',
    section: 'POST /api/public/v1/connections',
    catches: ['connections.every-environment'],
    handle(req, next) {
      const body = is('POST', CONNECTIONS)(req) ? jsonBodyOf(req) : undefined;
      return next(body?.environment === 'pilot' ? withJsonBody(req, { ...body, environment: 'sandbox' }) : req);
    },
  },
  {
    name: 'default-environment-production',
    description: 'POST /capabilities without environment is judged for production instead of sandbox',
    section: 'POST /api/public/v1/capabilities',
    catches: ['capabilities.default-environment', 'connections.every-environment'],
    handle(req, next) {
      const body = is('POST', CAPABILITIES)(req) ? jsonBodyOf(req) : undefined;
      return next(
        body && body.environment === undefined ? withJsonBody(req, { ...body, environment: 'production' }) : req,
      );
    },
  },
  {
    name: 'idempotency-key-without-expiry',
    description: 'POST /idempotency-keys answers without expiresAt',
    section: 'Idempotency key result',
    catches: ['idempotency.key-result', 'envelope.response-schema-openapi'],
    async handle(req, next) {
      const res = await next(req);
      return is('POST', KEYS)(req) ? editJson(res, (b) => void delete b.data?.expiresAt) : res;
    },
  },
  {
    name: 'connections-tenant-wrong',
    description: 'GET /connections answers data.tenant of another tenant than the one asked for',
    section: 'GET /api/public/v1/connections',
    catches: ['connections.tenant'],
    async handle(req, next) {
      const res = await next(req);
      return is('GET', CONNECTIONS)(req) && res.status === 200
        ? editJson(res, (b) => {
            if (!b.data) return;
            b.data.tenant = 'someone-else';
          })
        : res;
    },
  },
  {
    name: 'webhook-registration-not-replayed',
    description: 'POST /webhooks ignores the Idempotency-Key: the same key and body register a second receiver',
    section: 'What the service does',
    catches: ['webhooks.registration-replay', 'limits.idempotency-key', 'webhooks.registration-keys'],
    // The second receiver signs what it gets with its own key, where a delivery reaches it before the run ends.
    mayCatch: ['webhooks.signature'],
    handle(req, next) {
      if (!is('POST', WEBHOOKS)(req) || !req.headers['idempotency-key']) return next(req);
      const key = `${req.headers['idempotency-key']}.${Math.random().toString(36).slice(2, 10)}`.slice(-128);
      return next({ ...req, headers: { ...req.headers, 'idempotency-key': key } });
    },
  },
];
