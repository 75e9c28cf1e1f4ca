// Violations of the rate-limit headers and of the 429 answer: missing or malformed values, a counter that never
// counts (for every tenant, or for all but the first), a Retry-After missing or in milliseconds, and a header
// writer that reports a fresh window on refusals answered before the limiter's context is loaded.
import type { PlainResponse } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import type { Violation } from './types.ts';

const withHeaders = (res: PlainResponse, edit: (h: Record<string, string>) => void): PlainResponse => {
  const headers = { ...res.headers };
  edit(headers);
  return { ...res, headers };
};

export const RATE_LIMIT_VIOLATIONS: Violation[] = [
  {
    name: 'rate-limit-headers-missing',
    description: 'answers carry no X-RateLimit-Limit and X-RateLimit-Remaining',
    section: 'Limits',
    catches: ['rate-limit.headers', 'responses.rate-limit-headers', 'responses.rate-limit-headers-uncounted'],
    async handle(req, next) {
      return withHeaders(await next(req), (h) => {
        delete h['x-ratelimit-limit'];
        delete h['x-ratelimit-remaining'];
      });
    },
  },
  {
    name: 'rate-limit-values-malformed',
    description: 'X-RateLimit-Remaining says "plenty" instead of a number',
    section: 'Limits',
    // openapi.json documents the header as an integer: the answers no longer carry what it describes.
    catches: ['rate-limit.headers-numeric', 'openapi.response-headers-admit-served'],
    async handle(req, next) {
      return withHeaders(await next(req), (h) => {
        if (h['x-ratelimit-remaining'] !== undefined) h['x-ratelimit-remaining'] = 'plenty';
      });
    },
  },
  {
    name: 'rate-limit-remaining-frozen',
    description: 'X-RateLimit-Remaining always equals the limit: it never counts down',
    section: 'Limits',
    catches: ['rate-limit.remaining-decreases'],
    async handle(req, next) {
      return withHeaders(await next(req), (h) => {
        if (h['x-ratelimit-limit'] !== undefined) h['x-ratelimit-remaining'] = h['x-ratelimit-limit'];
      });
    },
  },
  {
    name: 'other-tenant-remaining-frozen',
    description:
      "for every tenant but the first, X-RateLimit-Remaining always equals the limit (the counter reads the first tenant's window only)",
    section: 'Limits',
    catches: ['rate-limit.remaining-decreases'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (!tenant || tenant === (await defaultAccess(core)).tenant) return res;
      return withHeaders(res, (h) => {
        if (h['x-ratelimit-limit'] !== undefined) h['x-ratelimit-remaining'] = h['x-ratelimit-limit'];
      });
    },
  },
  {
    name: 'rate-limited-without-retry-after',
    description: 'a 429 rate_limited comes without Retry-After',
    section: 'Limits',
    catches: ['rate-limit.retry-after'],
    async handle(req, next) {
      const res = await next(req);
      return res.status === 429 ? withHeaders(res, (h) => void delete h['retry-after']) : res;
    },
  },
  {
    name: 'retry-after-in-milliseconds',
    description: "a 429's Retry-After gives the wait in milliseconds (a 1 s wait sent as 1000)",
    section: 'Limits',
    catches: ['rate-limit.retry-after-seconds'],
    async handle(req, next) {
      const res = await next(req);
      const seconds = Number(res.headers['retry-after']);
      return res.status === 429 && Number.isFinite(seconds)
        ? withHeaders(res, (h) => {
            h['retry-after'] = String(Math.max(1, seconds) * 1000);
          })
        : res;
    },
  },
  {
    name: 'refusals-report-fresh-window',
    description:
      "body validation fails before the limiter's context is loaded, so the header writer fills X-RateLimit-Remaining from a fresh window: every 400 says the whole limit is left, the next call continues the old count",
    section: 'Limits',
    catches: ['rate-limit.remaining-steps'],
    async handle(req, next) {
      const res = await next(req);
      return res.status === 400 && req.headers.authorization
        ? withHeaders(res, (h) => {
            if (h['x-ratelimit-limit'] !== undefined) h['x-ratelimit-remaining'] = h['x-ratelimit-limit'];
          })
        : res;
    },
  },
];
