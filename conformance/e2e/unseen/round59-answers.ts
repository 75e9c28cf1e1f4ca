import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 59, part 1: meta and rate-limit headers against the call they answer (request ids, times, counts over a window). */
const keyOf = (c: ProxyCall) => c.headers['idempotency-key'];
const shiftIso = (at: unknown, seconds: number) =>
  typeof at === 'string' && !Number.isNaN(Date.parse(at))
    ? new Date(Date.parse(at) + seconds * 1000).toISOString()
    : at;

export const ROUND59_ANSWERS: UnseenViolation[] = [
  {
    name: 'idempotency-required-envelope-request-id-frozen',
    statement:
      'Meta: requestId | identifier of this call, quoted for support queries; Errors: They contain the request identifier (meta.requestId) (every 428 idempotency_required after the first)',
    answer(c, a) {
      // The 428 refusal is a module-level constant envelope built on the first miss; its meta is never rebuilt.
      home(c);
      if (a.status !== 428 || !a.json.meta) return;
      const frozen = c.memory.get('r59-428-id') as string | undefined;
      if (!frozen) c.memory.set('r59-428-id', a.json.meta.requestId);
      else {
        a.json.meta.requestId = frozen;
        a.headers['x-request-id'] = frozen;
      }
    },
  },
  {
    name: 'not-found-meta-at-frozen-at-first-miss',
    statement:
      'Failure envelope (every error response): meta | Meta | yes; Meta: at | string, date-time (the time of the call: a 404 answered after an earlier one)',
    answer(c, a) {
      // The not-found handler memoises its envelope (a "static" 404 page cached by the CDN edge), meta.at included.
      home(c);
      if (a.status !== 404 || !a.json.meta) return;
      const first = c.memory.get('r59-404-at') as string | undefined;
      if (!first) c.memory.set('r59-404-at', a.json.meta.at);
      else a.json.meta.at = first;
    },
  },
  {
    name: 'rate-limited-meta-at-window-start',
    statement:
      'Meta: at | string, date-time (of the call); Limits: When exceeded, the service answers 429 with a wait time (meta of a 429 answer)',
    answer(c, a) {
      // The limiter builds its 429 from the window record and stamps meta.at with window.startedAt, not now.
      home(c);
      if (a.status !== 429 || !a.json.meta) return;
      const wait = Number(a.headers['retry-after'] ?? 1) || 1;
      a.json.meta.at = shiftIso(a.json.meta.at, -(60 - Math.min(wait, 59)));
    },
  },
  {
    name: 'creation-with-issued-key-reports-issue-request-id',
    statement: 'Meta: requestId | identifier of this call (a creation sent with a key from POST /idempotency-keys)',
    answer(c, a) {
      // Tracing "correlates" a keyed write with the call that issued its key: the stored trace id becomes the request id.
      home(c);
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && a.status === 200 && a.json.data?.idempotencyKey) {
        c.memory.set(`r59-issue-rid:${a.json.data.idempotencyKey}`, a.json.meta?.requestId);
        return;
      }
      const key = keyOf(c);
      const rid = key ? (c.memory.get(`r59-issue-rid:${key}`) as string | undefined) : undefined;
      if (!isCreate(c) || !rid || !a.json.meta) return;
      a.json.meta.requestId = rid;
      a.headers['x-request-id'] = rid;
    },
  },
  {
    name: 'replayed-creation-raises-remaining',
    statement:
      'Limits: X-RateLimit-Remaining (calls left in the window) (an idempotent replay of a creation: the calls left never grow inside a window)',
    answer(c, a) {
      // Replays are "free": the replay path refunds the call, but refunds two tokens (once in the cache layer, once in the handler).
      home(c);
      const remaining = Number(a.headers['x-ratelimit-remaining']);
      if (Number.isNaN(remaining) || a.headers['x-ratelimit-remaining'] === undefined) return;
      const tenant = c.headers['x-service-tenant'] ?? '';
      const bonus = (c.memory.get(`r59-refund:${tenant}`) as number | undefined) ?? 0;
      const next = isCreate(c) && a.json.meta?.replayed === true ? bonus + 2 : bonus;
      c.memory.set(`r59-refund:${tenant}`, next);
      if (next) a.headers['x-ratelimit-remaining'] = String(remaining + next);
    },
  },
  {
    name: 'key-issues-not-counted-until-next-call',
    statement:
      'Limits: X-RateLimit-Remaining (calls left in the window) (POST /api/public/v1/idempotency-keys, an authenticated call)',
    answer(c, a) {
      // The key router is mounted before the limiter; its calls are counted lazily by the next call that passes it.
      home(c);
      const remaining = Number(a.headers['x-ratelimit-remaining']);
      if (a.headers['x-ratelimit-remaining'] === undefined || Number.isNaN(remaining)) return;
      const tenant = c.headers['x-service-tenant'] ?? '';
      const owed = (c.memory.get(`r59-owed:${tenant}`) as number | undefined) ?? 0;
      if (c.method === 'POST' && c.path === P('/idempotency-keys')) {
        c.memory.set(`r59-owed:${tenant}`, owed + 1);
        a.headers['x-ratelimit-remaining'] = String(remaining + owed + 1);
        return;
      }
      c.memory.set(`r59-owed:${tenant}`, 0);
    },
  },
  {
    name: 'foreign-tenant-403-meta-lacks-version',
    statement:
      'Failure envelope (every error response): meta | Meta | yes; Meta: version | string | yes (a 403 for a tenant the access is not released for)',
    answer(c, a) {
      // The tenant guard answers before the version middleware has put the version on the response context.
      const second = isSecond(c);
      if (a.status !== 403 || !a.json.meta || !second) return;
      delete (a.json.meta as Rec).version;
    },
  },
];
