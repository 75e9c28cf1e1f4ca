import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P, refuse } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/** Round 56, part 4: headers a client reads on failures (X-RateLimit-*, Retry-After) and webhook registrations with unusual addresses or retries. */
const isRegistration = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});

export const ROUND56_CHANNELS: UnseenViolation[] = [
  {
    name: 'retry-after-with-seconds-suffix',
    statement: 'Limits: Response headers: Retry-After (recommended wait in seconds) (a 429 answer)',
    answer(c, a) {
      // The wait is formatted with the duration helper of the metrics library, which writes "5s".
      home(c);
      const wait = a.headers['retry-after'];
      if (typeof wait === 'string' && /^\d+$/.test(wait.trim())) a.headers['retry-after'] = `${wait.trim()}s`;
    },
  },
  {
    name: 'validation-refusals-report-full-remaining',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (a 400 invalid_request answer after earlier calls in the window)',
    answer(c, a) {
      // Body validation fails before the limiter's context is loaded, so the header writer fills Remaining from a fresh window.
      home(c);
      const limit = a.headers['x-ratelimit-limit'];
      if (
        a.status === 400 &&
        c.headers.authorization &&
        limit !== undefined &&
        a.headers['x-ratelimit-remaining'] !== undefined
      )
        a.headers['x-ratelimit-remaining'] = limit;
    },
  },
  {
    name: 'internal-errors-lack-rate-limit-headers',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (a 500 internal answer to an authenticated call)',
    answer(c, a) {
      // The exception filter builds a new response object and copies only content-type from the one the limiter decorated.
      home(c);
      if (a.status !== 500 || !c.headers.authorization) return;
      delete a.headers['x-ratelimit-limit'];
      delete a.headers['x-ratelimit-remaining'];
    },
  },
  {
    name: 'webhook-url-with-percent-encoding-refused',
    statement:
      'POST /api/public/v1/webhooks: Body: url (string, the receiver address) (a receiver address whose path holds percent-encoded characters, such as a blank or an accented letter)',
    request(c) {
      // The URL check is a hand-written regex allowing [A-Za-z0-9./:_-] only; a failing address is blanked and refused as invalid.
      home(c);
      const b = bodyOf(c.body);
      if (isRegistration(c) && typeof b.url === 'string' && /%[0-9A-Fa-f]{2}/.test(b.url)) c.body = { ...b, url: '' };
      return undefined;
    },
  },
  {
    name: 'webhook-registration-retried-after-500-answered-conflict',
    statement:
      'What the service does: the same key with the same content returns the same response again; Errors: idempotency_conflict | same idempotency key with different content (a receiver registration answered 500, retried with the same key and body)',
    answer(c, a) {
      // The receiver store marks the key "failed" without the body hash on a 500, and the retry compares against the empty hash.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isRegistration(c) || !key) return;
      const failed = (c.memory.get('r56-failed-registrations') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('r56-failed-registrations', failed);
      const slot = `${tenantOf(c)}|${key}`;
      if (a.status === 500) failed.add(slot);
      else if (a.status === 200 && failed.has(slot))
        refuse(a, 409, 'idempotency_conflict', 'The idempotency key was already used with different content.');
    },
  },
];
