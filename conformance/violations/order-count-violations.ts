// Violations of what an answer says against the answers around it: a time that stands still, a count the next
// call continues differently, a filter lost beside two others, a repeat at the other address taken as new.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { PlainRequest } from '../../simulator/index.ts';
import { editJson } from './json-edit.ts';
import type { Violation } from './types.ts';

const KEYS = `${BASE_PATH}/idempotency-keys`;
const CONNECTORS = `${BASE_PATH}/connectors`;
const WEBHOOKS = `${BASE_PATH}/webhooks`;

/** Per simulator: the meta.at of its first 401. */
const firstUnauthorizedAt = new WeakMap<object, string>();

const one = (req: PlainRequest, name: string) => {
  const v = req.query[name];
  return Array.isArray(v) ? v[0] : v;
};

export const ORDER_COUNT_VIOLATIONS: Violation[] = [
  {
    name: 'unauthorized-envelope-time-cached',
    description:
      'every 401 answer states the meta.at of the first one (the "not signed in" envelope is built once and kept, its time with it)',
    section: 'Meta',
    catches: ['envelope.meta-at-in-order'],
    async handle(req, next, core) {
      const res = await next(req);
      if (res.status !== 401) return res;
      return editJson(res, (b) => {
        if (!b.meta || typeof b.meta.at !== 'string') return;
        const first = firstUnauthorizedAt.get(core);
        if (first === undefined) firstUnauthorizedAt.set(core, b.meta.at);
        else b.meta.at = first;
      });
    },
  },
  {
    name: 'key-issue-charged-to-next-call',
    description:
      "POST /idempotency-keys answers before the rate limiter counts it (its X-RateLimit-Remaining one too high), and the tenant's next call pays for it",
    section: 'Limits',
    catches: ['rate-limit.remaining-steps-writes'],
    async handle(req, next) {
      const res = await next(req);
      const left = Number(res.headers['x-ratelimit-remaining']);
      // The limiter did count it: the next call's header shows the count it continues.
      if (req.method !== 'POST' || req.path !== KEYS || !Number.isInteger(left)) return res;
      return { ...res, headers: { ...res.headers, 'x-ratelimit-remaining': String(left + 1) } };
    },
  },
  {
    name: 'connectors-provider-filter-dropped-beside-two',
    description:
      'GET /connectors given capability, category and providerId filters on the first two only (the query builder takes two predicates, in the order capability, category, providerId)',
    section: 'GET /api/public/v1/connectors',
    catches: ['catalog.filters'],
    mayCatch: ['generated.filters-respected'],
    async handle(req, next) {
      if (req.method !== 'GET' || req.path !== CONNECTORS) return next(req);
      if (!one(req, 'capability') || !one(req, 'category') || !one(req, 'providerId')) return next(req);
      const { providerId: _, ...query } = req.query;
      return next({ ...req, query });
    },
  },
  {
    name: 'alt-webhook-repeat-registers-anew',
    description:
      'at the alternate address a webhook registration sent again with its Idempotency-Key registers a second receiver and answers as new (that address keeps its own idempotency store)',
    section: 'What the service does',
    where: 'alt',
    catches: ['webhooks.registration-replay'],
    // Its deliveries, where some arrive before the run ends, are signed with the second receiver's key.
    mayCatch: ['webhooks.signature'],
    async handle(req, next) {
      const key = req.headers['idempotency-key'];
      if (req.method !== 'POST' || req.path !== WEBHOOKS || !key) return next(req);
      return next({ ...req, headers: { ...req.headers, 'idempotency-key': `${key.slice(0, 120)}.alt` } });
    },
  },
];
