// Violations where two or three places meet: the alternate address, a tenant other than the first, and callers
// of the earlier version. Each place alone answers right, so a kit that probes each place on its own sees
// nothing; each proves places.scenario-alike, which runs one scenario in every place crossed with every other.
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { PlainRequest, PlainResponse } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import { editJson, failureOf, jsonBodyOf } from './json-edit.ts';
import type { Violation } from './types.ts';

const EARLIER = SUPPORTED_VERSIONS[1] ?? '2026-06-12';
const CONNECTIONS = `${BASE_PATH}/connections`;

/** The first answer per tenant and key, per sandbox (per run): a gateway's replay cache. */
const firstAnswers = new WeakMap<object, Map<string, PlainResponse>>();

const earlier = (req: PlainRequest) => req.headers['service-version'] === EARLIER;

export const CROSSED_PLACE_VIOLATIONS: Violation[] = [
  {
    name: 'alt-second-tenant-earlier-replay-whole-answer',
    description:
      "at the alternate address, for a tenant other than the first calling with Service-Version 2026-06-12, a creation repeated with its key is answered from the gateway's replay cache: the first answer byte for byte, meta.requestId included and meta.replayed left out",
    section: 'POST /api/public/v1/connections',
    catches: ['places.scenario-alike'],
    where: 'alt',
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      const key = req.headers['idempotency-key'];
      const create = req.method === 'POST' && req.path === CONNECTIONS;
      if (!create || !key || !tenant || !earlier(req) || tenant === (await defaultAccess(core)).tenant)
        return next(req);
      const cache = firstAnswers.get(core) ?? new Map<string, PlainResponse>();
      firstAnswers.set(core, cache);
      const hit = cache.get(`${tenant}\n${key}`);
      const res = await next(req);
      // Only a replay the service itself would answer 200 is taken from the cache (a conflict stays a conflict).
      if (hit && res.status === 200) return hit;
      if (!hit && res.status === 200) cache.set(`${tenant}\n${key}`, res);
      return res;
    },
  },
  {
    name: 'alt-earlier-check-environment-sandbox',
    description:
      "at the alternate address, for callers of Service-Version 2026-06-12, the capability check reports environment sandbox whatever environment was asked: that version's mapping at the gateway predates the body's environment field",
    section: 'POST /api/public/v1/capabilities',
    catches: ['places.scenario-alike'],
    where: 'alt',
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== `${BASE_PATH}/capabilities` || !earlier(req)) return res;
      return editJson(res, (b) => {
        const data = b.data as { environment?: unknown } | undefined;
        if (data && typeof data.environment === 'string') data.environment = 'sandbox';
      });
    },
  },
  {
    name: 'alt-second-tenant-keyless-creation-taken',
    description:
      'at the alternate address, for a tenant other than the first, a creation without an Idempotency-Key is carried out under a key the gateway makes up (its per-tenant route injects one): each place alone still refuses it',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.required'],
    mayCatch: ['generated.idempotency-key-echo'],
    where: 'alt',
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      const create = req.method === 'POST' && req.path === CONNECTIONS;
      if (!create || req.headers['idempotency-key'] || !tenant || tenant === (await defaultAccess(core)).tenant)
        return next(req);
      return next({
        ...req,
        headers: { ...req.headers, 'idempotency-key': `gw-${Date.now()}-${Math.random().toString(36).slice(2, 10)}` },
      });
    },
  },
  {
    name: 'alt-scope-label-capped-at-64',
    description:
      'at the alternate address a creation whose scopeLabel is longer than 64 characters is refused 400 (that gateway validates against an older schema), though the limit is 2 to 120',
    section: 'Limits',
    catches: ['limits.scope-label-length'],
    where: 'alt',
    async handle(req, next) {
      const label = (jsonBodyOf(req) as { scopeLabel?: unknown } | undefined)?.scopeLabel;
      if (req.method === 'POST' && req.path === CONNECTIONS && typeof label === 'string' && label.length > 64)
        return failureOf('invalid_request', 'scopeLabel must be at most 64 characters');
      return next(req);
    },
  },
];
