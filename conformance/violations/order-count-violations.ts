// Violations of what an answer says against the answers around it: a time that stands still, a count the next
// call continues differently, a filter lost beside two others, a repeat at the other address taken as new.
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { PlainRequest } from '../../simulator/index.ts';
import { editJson, failureOf } from './json-edit.ts';
import { editStream, sseIdOf } from './stream-edit.ts';
import type { Violation } from './types.ts';

const KEYS = `${BASE_PATH}/idempotency-keys`;
const CONNECTORS = `${BASE_PATH}/connectors`;
const WEBHOOKS = `${BASE_PATH}/webhooks`;
const CAPABILITIES = `${BASE_PATH}/capabilities`;
const EARLIER = SUPPORTED_VERSIONS[1] ?? '2026-06-12';
const earlier = (req: PlainRequest) => req.headers['service-version'] === EARLIER;

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
  {
    name: 'stream-outbox-marker-resets-last-id',
    description:
      'after each message the stream writes a block `id: 0` of its own (the outbox relay marks a flushed batch): a standard client then holds 0 as its last event ID and resumes from the start',
    section: 'Events',
    catches: ['sse.last-event-id-kept'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== `${BASE_PATH}/stream`) return res;
      return editStream(res, () => (chunk) => (sseIdOf(chunk) === undefined ? [chunk] : [chunk, 'id: 0\n\n']));
    },
  },
  {
    name: 'earlier-version-foreign-tenant-not-found',
    description:
      'under Service-Version 2026-06-12 a call for a tenant the access is not released for answers 404 not_found (the older tenant guard looks the tenant up among the released ones)',
    section: 'Errors',
    // Its 404 is built outside the limiter, without the rate-limit headers every authenticated answer carries.
    catches: ['errors.forbidden-tenant', 'responses.rate-limit-headers-uncounted'],
    async handle(req, next) {
      const res = await next(req);
      if (!earlier(req) || res.status !== 403) return res;
      return failureOf('not_found', 'The entry does not exist.');
    },
  },
  {
    name: 'earlier-version-capabilities-first-twice',
    description:
      'under Service-Version 2026-06-12 GET /capabilities lists its first capability twice and the last not at all (the older pager repeats the first row where a page boundary falls)',
    section: 'GET /api/public/v1/capabilities',
    catches: ['places.scenario-alike'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== CAPABILITIES || !earlier(req)) return res;
      return editJson(res, (b) => {
        const list = b.data?.capabilities;
        if (!Array.isArray(list) || list.length < 2 || !b.data) return;
        b.data.capabilities = [list[0], ...list.slice(0, -1)];
      });
    },
  },
  {
    name: 'earlier-version-registration-repeat-registers-anew',
    description:
      'under Service-Version 2026-06-12 a webhook registration sent again with its Idempotency-Key registers a second receiver with a new signing key (the older handler reads no key)',
    section: 'What the service does',
    catches: ['webhooks.registration-replay'],
    // The second receiver signs with its own key what reaches it before the run ends.
    mayCatch: ['webhooks.signature'],
    async handle(req, next) {
      const key = req.headers['idempotency-key'];
      if (req.method !== 'POST' || req.path !== WEBHOOKS || !key || !earlier(req)) return next(req);
      const fresh = `${key.slice(0, 100)}.${Math.random().toString(36).slice(2, 10)}`;
      return next({ ...req, headers: { ...req.headers, 'idempotency-key': fresh } });
    },
  },
];
