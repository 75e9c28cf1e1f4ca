import { randomBytes } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, refuse } from './proxy-helpers.ts';

/** Round 56, part 3: refusals under load and retries (a 429 window, a repeated 500, a creation retried with the same key). */
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const keyOf = (c: ProxyCall) => c.headers['idempotency-key'];
/** A set kept in the violation's memory under `slot`. */
const setOf = (c: ProxyCall, slot: string) => {
  const set = (c.memory.get(slot) as Set<string> | undefined) ?? new Set<string>();
  c.memory.set(slot, set);
  return set;
};

export const ROUND56_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'creation-retried-after-429-answered-conflict',
    statement:
      'Errors: idempotency_conflict | 409 | same idempotency key with different content; rate_limited | 429 | Remedy: respect the wait time of the response, retry (a creation refused with 429, retried with the same key and content)',
    answer(c, a) {
      // The key middleware reserves the key with an empty fingerprint before the limiter runs; the 429 path never releases it.
      home(c);
      const key = keyOf(c);
      if (!isCreate(c) || !key) return;
      const reserved = setOf(c, 'r56-reserved-by-429');
      const slot = `${tenantOf(c)}|${key}`;
      if (a.status === 429) reserved.add(slot);
      else if (a.status === 200 && reserved.has(slot))
        refuse(a, 409, 'idempotency_conflict', 'The idempotency key was already used with different content.');
    },
  },
  {
    name: 'retry-after-internal-error-creates-second-connection',
    statement:
      'What the service does: Modifying calls are repeat-safe through idempotency keys: the same key with the same content returns the same response again (a creation answered 500 after it was stored, retried with the same key)',
    answer(c, a) {
      // The 500 handler rolls back the key record but not the connection, so the retry runs the creation a second time.
      home(c);
      const key = keyOf(c);
      if (!isCreate(c) || !key) return;
      const failed = setOf(c, 'r56-failed-creations');
      const slot = `${tenantOf(c)}|${key}`;
      if (a.status === 500) failed.add(slot);
      else if (a.status === 200 && failed.has(slot) && a.json.meta?.replayed === true) {
        const id = a.json.data?.id;
        if (typeof id === 'string' && id.length > 4)
          a.json.data.id = `${id.slice(0, -4)}${randomBytes(2).toString('hex')}`;
        a.json.data.createdAt = new Date().toISOString();
        delete a.json.meta.replayed;
      }
    },
  },
  {
    name: 'retried-replay-after-internal-error-lacks-key-echo',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true and meta.idempotencyKey set (a retry after a 500)',
    answer(c, a) {
      // The retry path answers from the recovery journal, whose envelope builder was written without the key field.
      home(c);
      const key = keyOf(c);
      if (!isCreate(c) || !key) return;
      const failed = setOf(c, 'r56-failed-keys');
      const slot = `${tenantOf(c)}|${key}`;
      if (a.status === 500) failed.add(slot);
      else if (a.status === 200 && failed.has(slot) && a.json.meta?.replayed === true)
        delete a.json.meta.idempotencyKey;
    },
  },
  {
    name: 'consecutive-internal-errors-repeat-request-id',
    statement:
      'Meta: requestId | identifier of this call, quoted for support queries; Errors: internal | Remedy: note the request identifier and inform support (two 500 answers in a row)',
    answer(c, a) {
      // During an incident the error handler serves the failure envelope it cached for the first fault, request id included.
      home(c);
      if (a.status !== 500) {
        c.memory.delete('r56-first-500-id');
        return;
      }
      const first = c.memory.get('r56-first-500-id');
      if (typeof first === 'string' && a.json.meta) a.json.meta.requestId = first;
      else if (typeof a.json.meta?.requestId === 'string') c.memory.set('r56-first-500-id', a.json.meta.requestId);
    },
  },
  {
    name: 'rate-limited-meta-lacks-version',
    statement:
      'Failure envelope (every error response): meta | Meta | yes; Meta: version | string | yes (a 429 rate_limited answer)',
    answer(c, a) {
      // The limiter answers from the gateway layer, which builds meta itself and knows nothing of the interface version.
      home(c);
      if (a.status === 429 && a.json.meta && typeof a.json.meta === 'object') delete a.json.meta.version;
    },
  },
  {
    name: 'rate-limited-keyed-call-meta-replayed-true',
    statement:
      'Meta: replayed | boolean | true when the response comes from an earlier identical operation (a call with an Idempotency-Key refused with 429)',
    answer(c, a) {
      // The idempotency middleware finds the "pending" record it wrote before the limiter refused and marks the answer as a replay.
      home(c);
      const key = keyOf(c);
      if (a.status !== 429 || !key || !a.json.meta || typeof a.json.meta !== 'object') return;
      a.json.meta.replayed = true;
      a.json.meta.idempotencyKey = key;
    },
  },
  {
    name: 'rate-limited-answered-503',
    statement:
      'Limits: When exceeded, the service answers 429 with a wait time; Errors: rate_limited | 429 (a call over the limit)',
    answer(c, a) {
      // The load shedder in front of the service maps every throttle to 503 Service Unavailable, keeping the body and Retry-After.
      home(c);
      if (a.status === 429) a.status = 503;
    },
  },
  {
    name: 'internal-error-served-as-text-html',
    statement:
      'Endpoints: may answer with the statuses 400, 401, 403, 404, 409, 428, 429, 500, each with the failure envelope (a 500 internal answer)',
    answer(c, a) {
      // The framework's last-resort error handler sends the serialised envelope with res.send(string), which defaults to text/html.
      home(c);
      if (a.status === 500) a.headers['content-type'] = 'text/html; charset=utf-8';
    },
  },
];
