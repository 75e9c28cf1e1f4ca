// Violations that show only in a sequence of calls of different kinds: a default taken from the last write, a
// delivery log keyed by a receiver URL's first path segment, a re-trigger that finds only a receiver's first
// delivery, a rate limit counted up by writes. The kit's plain calls each read one thing at a time.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core } from '../../simulator/index.ts';
import { editJson, failureOf, jsonBodyOf, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
const CHECKS = `${BASE_PATH}/capabilities`;
const WEBHOOKS = `${BASE_PATH}/webhooks`;
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/redeliver$/;

/** State of one sandbox (a violation's runs each get their own). */
function perCore<T>(make: () => T) {
  const all = new WeakMap<Core, T>();
  return (core: Core) => {
    let v = all.get(core);
    if (v === undefined) {
      v = make();
      all.set(core, v);
    }
    return v;
  };
}

const lastEnvironment = perCore(() => new Map<string, string>());
const receiverUrls = perCore(() => new Map<string, string>());
const writes = perCore(() => new Map<string, number>());
const tenantOf = (req: { headers: Record<string, string> }) => req.headers['x-service-tenant'] ?? '';

export const SEQUENCE_VIOLATIONS: Violation[] = [
  {
    name: 'check-default-from-last-creation',
    description:
      'a capability check without environment is decided for the environment of the tenant\'s last creation (the session keeps a "current environment"), not for sandbox',
    section: 'POST /api/public/v1/capabilities',
    catches: ['connections.every-environment', 'generated.request-echo'],
    async handle(req, next, core) {
      const body = jsonBodyOf(req);
      const envs = lastEnvironment(core);
      if (req.method === 'POST' && req.path === CONNECTIONS && typeof body?.environment === 'string')
        envs.set(tenantOf(req), body.environment);
      const env = envs.get(tenantOf(req));
      if (req.method === 'POST' && req.path === CHECKS && body && body.environment === undefined && env)
        return next(withJsonBody(req, { ...body, environment: env }));
      return next(req);
    },
  },
  {
    name: 'delivery-log-deeper-path-receivers-empty',
    description:
      "the delivery log is keyed by the receiver URL's first path segment: a receiver at a deeper path (…/hooks/v1/x) has its deliveries logged under a key no receiver reads, so its log is empty",
    section: 'Webhooks',
    catches: ['webhooks.delivery-log-forms'],
    async handle(req, next, core) {
      const res = await next(req);
      const urls = receiverUrls(core);
      if (req.method === 'POST' && req.path === WEBHOOKS && res.status === 200)
        editJson(res, (b) => {
          const { id, url } = (b.data ?? {}) as { id?: unknown; url?: unknown };
          if (typeof id === 'string' && typeof url === 'string') urls.set(id, url);
        });
      const id = req.method === 'GET' ? LOG.exec(req.path)?.[1] : undefined;
      const url = id ? urls.get(id) : undefined;
      if (!url || new URL(url).pathname.split('/').filter(Boolean).length < 2) return res;
      return editJson(res, (b) => {
        if (!b.data || !Array.isArray(b.data.deliveries)) return;
        b.data.deliveries = [];
        b.data.count = 0;
      });
    },
  },
  {
    name: 'redelivery-only-first-delivery',
    description:
      'a re-trigger looks the delivery up in the receiver\'s "first delivery" index: any later delivery the log lists answers 404 not_found',
    section: 'Webhooks',
    catches: ['webhooks.redelivery-any'],
    async handle(req, next) {
      const m = req.method === 'POST' ? REDELIVER.exec(req.path) : null;
      if (!m) return next(req);
      const log = await next({
        ...req,
        method: 'GET',
        path: `${WEBHOOKS}/${m[1]}/deliveries`,
        query: {},
        body: undefined,
      });
      let first: unknown;
      editJson(log, (b) => {
        const list = b.data?.deliveries;
        if (Array.isArray(list)) first = (list.at(-1) as { id?: unknown } | undefined)?.id;
      });
      return first === undefined || first === m[2] ? next(req) : failureOf('not_found', 'No such delivery.');
    },
  },
  {
    name: 'limit-header-counts-writes',
    description:
      "X-RateLimit-Limit adds the tenant's creations so far to the configured limit (a write credit reported in the header instead of kept apart): the limit moves within one window",
    section: 'Limits',
    catches: ['rate-limit.limit-steady'],
    async handle(req, next, core) {
      const res = await next(req);
      const counts = writes(core);
      const tenant = tenantOf(req);
      if (req.method === 'POST' && req.path === CONNECTIONS && res.status === 200)
        counts.set(tenant, (counts.get(tenant) ?? 0) + 1);
      const limit = res.headers['x-ratelimit-limit'];
      const extra = counts.get(tenant) ?? 0;
      if (!limit || !/^\d+$/.test(limit) || extra === 0) return res;
      return { ...res, headers: { ...res.headers, 'x-ratelimit-limit': String(Number(limit) + extra) } };
    },
  },
];
