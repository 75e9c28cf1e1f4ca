// Violations that show only in a sequence of calls of different kinds: a default taken from the last write, a
// delivery log keyed by a receiver URL's first path segment, a re-trigger that finds only a receiver's first
// delivery, a rate limit counted up by writes. The kit's plain calls each read one thing at a time.
import { WEBHOOK_DEFAULTS } from '../../simulator/contract/simulator-defaults.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { signWebhook } from '../../simulator/contract/webhook-signature.ts';
import type { Core, PlainResponse } from '../../simulator/index.ts';
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
const registered = perCore(() => new Map<string, PlainResponse>());
const uncounted = perCore(() => new Map<string, string>());
const receiversAt = perCore(() => new Map<string, { url: string; tenant: string; headers: Record<string, string> }>());
const tenantOf = (req: { headers: Record<string, string> }) => req.headers['x-service-tenant'] ?? '';

/** The deeper-path dispatcher pool's send buffer: the signing key of each signature, the events sent, a parked body. */
const pool = { keys: new Map<string, string>(), sent: new Set<string>(), parked: new Map<string, string>() };
const eventIdOf = (body: string) => {
  try {
    return (JSON.parse(body) as { id?: unknown }).id;
  } catch {
    return undefined;
  }
};

export const SEQUENCE_VIOLATIONS: Violation[] = [
  {
    name: 'check-default-from-last-creation',
    description:
      'a capability check without environment is decided for the environment of the tenant\'s last creation (the session keeps a "current environment"), not for sandbox',
    section: 'POST /api/public/v1/capabilities',
    // Run-wide: some check of the run without environment follows a creation in another one.
    catches: ['generated.request-echo'],
    // Where a creation in another environment lands just before the check's own check, and no other check's
    // creation comes between (run interleaving).
    mayCatch: ['capabilities.default-environment', 'connections.every-environment'],
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
    // Where another creation's delivery reached the receiver before the scenario's own, that one is not the
    // receiver's first either (run interleaving).
    mayCatch: ['webhooks.redelivery'],
    async handle(req, next) {
      const m = req.method === 'POST' ? REDELIVER.exec(req.path) : null;
      if (!m) return next(req);
      const log = await next({
        ...req,
        method: 'GET',
        path: `${WEBHOOKS}/${m[1]}/deliveries`,
        // The whole log (its largest page): the first delivery is its last entry.
        query: { limit: String(WEBHOOK_DEFAULTS.maxDeliveriesPerReceiver) },
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
    name: 'deeper-path-delivery-after-retrigger-sends-its-body',
    description:
      'receivers at a deeper path are served by a dispatcher pool whose send buffer keeps a re-triggered body: the next new delivery to such a receiver sends the re-triggered event again (signed correctly) in place of its own',
    section: 'Webhooks',
    catches: ['webhooks.redelivery-any'],
    webhooks: {
      sign(body, secret, t) {
        const value = signWebhook(body, secret, t);
        if (pool.keys.size > 1000) pool.keys.clear();
        pool.keys.set(value, secret);
        return value;
      },
      async fetch(url, init) {
        const body = typeof init?.body === 'string' ? init.body : undefined;
        const id = body === undefined ? undefined : eventIdOf(body);
        if (!String(url).includes('/hooks/v1/') || typeof id !== 'string' || !body) return fetch(url, init);
        // Per receiver: the same event goes to every receiver registered for it.
        const sent = `${String(url)} ${id}`;
        if (pool.sent.has(sent)) {
          pool.parked.set(String(url), body);
          return fetch(url, init);
        }
        pool.sent.add(sent);
        const parked = pool.parked.get(String(url));
        const headers = new Headers(init?.headers);
        const signed = [...headers].find(([, v]) => pool.keys.has(v));
        if (parked === undefined || !signed) return fetch(url, init);
        pool.parked.delete(String(url));
        const t = Number(/^t=(\d+)/.exec(signed[1])?.[1]);
        headers.set(signed[0], signWebhook(parked, pool.keys.get(signed[1]) as string, t));
        return fetch(url, { ...init, headers, body: parked });
      },
    },
    handle: (req, next) => next(req),
  },
  {
    name: 'trailing-slash-registration-answers-first-receiver',
    description:
      "POST /webhooks normalises the receiver URL (a trailing slash dropped) and answers a URL registered before with that receiver's first answer again, its signing key included",
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    catches: ['webhooks.registration-keys'],
    async handle(req, next, core) {
      const url = req.method === 'POST' && req.path === WEBHOOKS ? jsonBodyOf(req)?.url : undefined;
      if (typeof url !== 'string') return next(req);
      const seen = registered(core);
      const earlier = seen.get(`${tenantOf(req)} ${url.replace(/\/+$/, '')}`);
      if (earlier && url.endsWith('/')) {
        const requestId = `req_${Math.random().toString(36).slice(2)}`;
        const again = { ...earlier, headers: { ...earlier.headers, 'x-request-id': requestId } };
        return editJson(again, (b) => {
          if (b.meta) b.meta = { ...b.meta, requestId, at: new Date().toISOString() };
        });
      }
      const res = await next(req);
      if (res.status === 200) seen.set(`${tenantOf(req)} ${url}`, res);
      return res;
    },
  },
  {
    name: 'query-string-reads-uncounted',
    description:
      'the limiter is keyed by the raw request target and a read with a query string matches no rule: it is never counted, its X-RateLimit-Remaining stays where it first was',
    section: 'Limits',
    catches: ['rate-limit.remaining-decreases'],
    async handle(req, next, core) {
      const res = await next(req);
      const remaining = res.headers['x-ratelimit-remaining'];
      if (req.method !== 'GET' || Object.keys(req.query).length === 0 || remaining === undefined) return res;
      const first = uncounted(core);
      const key = `${tenantOf(req)} ${req.path}`;
      if (!first.has(key)) first.set(key, remaining);
      return { ...res, headers: { ...res.headers, 'x-ratelimit-remaining': first.get(key) as string } };
    },
  },
  {
    name: 'delivery-log-keyed-by-url-across-tenants',
    description:
      "a receiver's delivery log is read by its URL, not its id: another tenant's receiver at the same address lists the first tenant's deliveries too",
    section: 'Webhooks',
    catches: ['webhooks.log-tenant-own'],
    async handle(req, next, core) {
      const res = await next(req);
      const known = receiversAt(core);
      const url = req.method === 'POST' && req.path === WEBHOOKS ? jsonBodyOf(req)?.url : undefined;
      if (typeof url === 'string' && res.status === 200)
        editJson(res, (b) => {
          const id = (b.data as { id?: unknown } | undefined)?.id;
          if (typeof id === 'string') known.set(id, { url, tenant: tenantOf(req), headers: req.headers });
        });
      const id = req.method === 'GET' ? LOG.exec(req.path)?.[1] : undefined;
      const mine = id ? known.get(id) : undefined;
      if (!id || !mine || res.status !== 200) return res;
      const sameUrl = [...known].filter(([o, r]) => o !== id && r.url === mine.url && r.tenant !== mine.tenant);
      const theirs: unknown[] = [];
      for (const [o, r] of sameUrl) {
        // Read as the caller of this read is (its version), with the other receiver's tenant and access.
        const { 'service-version': _registeredWith, ...access } = r.headers;
        const version = req.headers['service-version'];
        const headers = version ? { ...access, 'service-version': version } : access;
        const log = await next({ ...req, path: `${WEBHOOKS}/${o}/deliveries`, headers });
        editJson(log, (b) => void theirs.push(...((b.data?.deliveries as unknown[] | undefined) ?? [])));
      }
      return editJson(res, (b) => {
        const own = b.data?.deliveries;
        if (!b.data || !Array.isArray(own)) return;
        b.data.deliveries = [...own, ...theirs];
        b.data.count = own.length + theirs.length;
      });
    },
  },
  {
    name: 'mixed-kinds-creation-entries-take-first-flags',
    description:
      "a creation booking capabilities of different kinds answers every entry with the first entry's critical and idempotencyRequired flags (the flags are read once per creation, not per capability)",
    section: 'Connection',
    catches: ['generated.capability-flags-agree'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== CONNECTIONS || res.status !== 200) return res;
      return editJson(res, (b) => {
        const entries = (b.data as { capabilities?: Record<string, unknown>[] } | undefined)?.capabilities;
        const first = entries?.[0];
        if (!entries || !first || entries.length < 2) return;
        for (const e of entries)
          Object.assign(e, { critical: first.critical, idempotencyRequired: first.idempotencyRequired });
      });
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
