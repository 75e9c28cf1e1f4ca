import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 59, part 4: the alternate address, the earlier version and webhook registrations against meta, headers and keys. */
const keyOf = (c: ProxyCall) => c.headers['idempotency-key'];
const isRegistration = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');

export const ROUND59_CHANNELS: UnseenViolation[] = [
  {
    name: 'alt-meta-at-seven-minutes-behind',
    statement:
      'Meta: at | string, date-time (of the call); the same interface is also offered under a second main-domain address {alt_base_url} (every answer at the alternate address)',
    answer(c, a) {
      // The alternate address runs on a node whose NTP sync failed; its clock is 7 minutes slow.
      home(c);
      const at = a.json.meta?.at;
      if (c.base !== 'alt' || typeof at !== 'string' || Number.isNaN(Date.parse(at))) return;
      a.json.meta.at = new Date(Date.parse(at) - 7 * 60_000).toISOString();
    },
  },
  {
    name: 'earlier-version-failures-repeat-request-id',
    statement:
      'Meta: requestId | identifier of this call; Errors: They contain the request identifier (meta.requestId) (failures under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 adapter rewraps errors and keeps the request id of the first error it wrapped in an instance field.
      home(c);
      if (!earlier(c) || a.status < 400 || !a.json.meta) return;
      const first = c.memory.get('r59-earlier-fail-id') as string | undefined;
      if (!first) c.memory.set('r59-earlier-fail-id', a.json.meta.requestId);
      else {
        a.json.meta.requestId = first;
        a.headers['x-request-id'] = first;
      }
    },
  },
  {
    name: 'alt-remaining-restarts-after-main-call',
    statement:
      'Limits: X-RateLimit-Remaining (calls left in the window); rate limits are configured per access, per tenant and per environment (calls alternating between the two addresses)',
    answer(c, a) {
      // Each address keeps a local window that is reset whenever the shared counter is written by the other address.
      home(c);
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (!limit || a.headers['x-ratelimit-remaining'] === undefined || a.status === 429) return;
      const last = c.memory.get('r59-last-base');
      c.memory.set('r59-last-base', c.base);
      if (c.base === 'alt' && last === 'main') a.headers['x-ratelimit-remaining'] = String(limit - 1);
    },
  },
  {
    name: 'alt-webhook-registration-replay-registers-again',
    statement:
      'What the service does: Modifying calls are repeat-safe through idempotency keys; POST /api/public/v1/webhooks: The signing key is issued exactly once (a registration sent again with its key at the alternate address)',
    request(c) {
      // The alternate address keeps its own idempotency cache: the repeat registers a second receiver, while a
      // response cache in front of it sends back the first answer marked as a replay.
      home(c);
      const key = keyOf(c);
      if (!isRegistration(c) || !key) return undefined;
      if (c.base === 'main') return undefined;
      if (c.memory.has(`r59-wh:${key}`)) c.headers['idempotency-key'] = `${key.slice(0, 120)}:alt`;
      return undefined;
    },
    answer(c, a) {
      const key = keyOf(c);
      if (!isRegistration(c) || !key || a.status !== 200) return;
      if (c.base === 'main') {
        if (!c.memory.has(`r59-wh:${key}`)) c.memory.set(`r59-wh:${key}`, structuredClone(a.json.data));
        return;
      }
      const original = key.endsWith(':alt') ? key.slice(0, -4) : undefined;
      const stored = (original && c.memory.get(`r59-wh:${original}`)) as Rec | undefined;
      if (!stored || !original) return;
      a.json.data = structuredClone(stored);
      a.json.meta = { ...a.json.meta, idempotencyKey: original, replayed: true };
    },
  },
  {
    name: 'retry-after-in-minutes',
    statement: 'Limits: Retry-After (recommended wait in seconds) (a 429 answer)',
    answer(c, a) {
      // The gateway's limiter config is in minutes and its value is written to the header unconverted (rounded up).
      home(c);
      if (a.status !== 429 || a.headers['retry-after'] === undefined) return;
      const seconds = Number(a.headers['retry-after']);
      if (!Number.isNaN(seconds)) a.headers['retry-after'] = String(Math.max(1, Math.ceil(seconds / 60)));
    },
  },
  {
    name: 'key-issue-resets-remaining',
    statement:
      'Limits: X-RateLimit-Remaining (calls left in the window) (the call after a POST /api/public/v1/idempotency-keys in the same window)',
    answer(c, a) {
      // The key route has its own limiter instance; it writes a fresh window into the shared store on every issue.
      home(c);
      const limit = Number(a.headers['x-ratelimit-limit']);
      const remaining = Number(a.headers['x-ratelimit-remaining']);
      if (!limit || Number.isNaN(remaining) || a.headers['x-ratelimit-remaining'] === undefined || a.status === 429)
        return;
      const tenant = c.headers['x-service-tenant'] ?? '';
      const k = `r59-reset:${tenant}`;
      if (c.method === 'POST' && c.path === P('/idempotency-keys')) {
        c.memory.set(k, { at: remaining, n: 0 });
        a.headers['x-ratelimit-remaining'] = String(limit - 1);
        return;
      }
      const base = c.memory.get(k) as { at: number; n: number } | undefined;
      if (!base) return;
      base.n += 1;
      a.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - 1 - base.n));
    },
  },
];
