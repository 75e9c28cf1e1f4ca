// Violations that show only when the service refuses or fails and the client retries: a key reserved before the
// limiter that a 429 never releases, a 500 handler that rolls back the key record but not the write, the
// last-resort error handler's content type and its cached request id. The kit meets them through the control
// plane's faults (a rate_limited, a commit_then_fail, two internal faults in a row).
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core } from '../../simulator/index.ts';
import { editJson, failureOf } from './json-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
const CAPABILITIES = `${BASE_PATH}/capabilities`;
/** Per sandbox: keys seen refused (429) or failed (500) on a creation. */
const keysOf = (map: WeakMap<Core, Set<string>>, core: Core) => {
  const set = map.get(core) ?? new Set<string>();
  map.set(core, set);
  return set;
};
const reserved = new WeakMap<Core, Set<string>>();
const failed = new WeakMap<Core, Set<string>>();
const lastFault = new WeakMap<Core, string>();
const keyOf = (req: { headers: Record<string, string> }) =>
  `${req.headers['x-service-tenant'] ?? ''}|${req.headers['idempotency-key'] ?? ''}`;

export const FAULT_VIOLATIONS: Violation[] = [
  {
    name: 'creation-after-429-answered-conflict',
    description:
      "the key middleware reserves a creation's key with an empty fingerprint before the limiter runs, and a 429 never releases it: the retry with the same key and content is refused 409 idempotency_conflict",
    section: 'Errors',
    catches: ['idempotency.retry-after-fault'],
    async handle(req, next, core) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== CONNECTIONS || !req.headers['idempotency-key']) return res;
      const keys = keysOf(reserved, core);
      if (res.status === 429) keys.add(keyOf(req));
      else if (res.status === 200 && keys.has(keyOf(req))) {
        // The refusal carries the limiter's headers, as the rest of the answer path does.
        const refusal = failureOf(
          'idempotency_conflict',
          'The idempotency key was already used with different content.',
        );
        refusal.headers = { ...res.headers, ...refusal.headers };
        return refusal;
      }
      return res;
    },
  },
  {
    name: 'creation-after-500-made-again',
    description:
      'the 500 handler rolls back the key record but not the connection: the retry of a creation stored before its 500 is answered as a new connection (another id, not marked replayed)',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.retry-after-fault'],
    async handle(req, next, core) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== CONNECTIONS || !req.headers['idempotency-key']) return res;
      const keys = keysOf(failed, core);
      if (res.status === 500) keys.add(keyOf(req));
      else if (res.status === 200 && keys.has(keyOf(req)))
        return editJson(res, (b) => {
          const data = b.data as { id?: string } | undefined;
          if (typeof data?.id === 'string') data.id = `${data.id}x`;
          if (b.meta) delete (b.meta as { replayed?: unknown }).replayed;
        });
      return res;
    },
  },
  {
    name: 'internal-error-as-text-html',
    description:
      "the framework's last-resort error handler sends the serialised failure envelope with res.send(string), which defaults to text/html",
    section: 'Endpoints',
    // The run-wide rule on JSON answers' content type sees it too.
    catches: ['errors.internal', 'responses.json-content-type'],
    async handle(req, next) {
      const res = await next(req);
      if (res.status === 500) res.headers['content-type'] = 'text/html; charset=utf-8';
      return res;
    },
  },
  {
    name: 'internal-errors-repeat-request-id',
    description:
      'during an incident the error handler serves the failure envelope it cached for the first fault, its request id included: two 500s in a row carry one meta.requestId',
    section: 'Meta',
    catches: ['errors.internal'],
    async handle(req, next, core) {
      const res = await next(req);
      if (res.status !== 500) {
        lastFault.delete(core);
        return res;
      }
      return editJson(res, (b) => {
        const meta = b.meta as { requestId?: string } | undefined;
        const first = lastFault.get(core);
        if (first && meta) meta.requestId = first;
        else if (meta?.requestId) lastFault.set(core, meta.requestId);
      });
    },
  },
  {
    name: 'rate-limited-creation-marked-replayed',
    description:
      'the idempotency middleware finds the pending record it wrote before the limiter refused and marks the 429 as a replay: a first creation refused 429 carries meta.replayed true',
    section: 'Meta',
    catches: ['generated.replay-after-a-first-call'],
    async handle(req, next) {
      const res = await next(req);
      const key = req.headers['idempotency-key'];
      if (req.method !== 'POST' || req.path !== CONNECTIONS || !key || res.status !== 429) return res;
      return editJson(res, (b) => {
        const meta = b.meta as { replayed?: boolean; idempotencyKey?: string } | undefined;
        if (meta) Object.assign(meta, { replayed: true, idempotencyKey: key });
      });
    },
  },
  {
    name: 'check-denied-without-key',
    description:
      'the capability checker reuses the call guard: a capability whose calls need an idempotency key is decided "not allowed" when the check itself carries no key',
    section: 'POST /api/public/v1/capabilities',
    catches: ['capabilities.key-neutral'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== CAPABILITIES || req.headers['idempotency-key'] || res.status !== 200)
        return res;
      return editJson(res, (b) => {
        const d = (b.data as { decision?: { allowed?: unknown; idempotencyRequired?: unknown; reason?: unknown } })
          ?.decision;
        if (d?.allowed === true && d.idempotencyRequired === true)
          Object.assign(d, { allowed: false, reason: 'An idempotency key is required for this capability.' });
      });
    },
  },
  {
    name: 'replayed-refusal-without-key-echo',
    description:
      'a stored refusal of a creation is replayed through the generic error serializer, which builds fresh meta: the repeat of a refused creation carries neither meta.replayed nor meta.idempotencyKey, though the first refusal named the key',
    section: 'POST /api/public/v1/connections',
    catches: ['generated.idempotency-key-echo'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== CONNECTIONS || res.status < 400 || res.status >= 500) return res;
      return editJson(res, (b) => {
        const meta = b.meta as { replayed?: unknown; idempotencyKey?: unknown } | undefined;
        if (meta?.replayed !== true) return;
        delete meta.replayed;
        delete meta.idempotencyKey;
      });
    },
  },
  {
    name: 'refused-creation-repeat-conflicts',
    description:
      'the key middleware stores a refused creation with an empty fingerprint: the same key and content sent again is refused 409 idempotency_conflict instead of the refusal it got',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.refusal-repeated'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== CONNECTIONS || res.status !== 404) return res;
      if (res.body?.includes('"replayed":true') !== true) return res;
      // The refusal carries the limiter's headers, as the rest of the answer path does.
      const refusal = failureOf('idempotency_conflict', 'The idempotency key was already used with different content.');
      refusal.headers = { ...res.headers, ...refusal.headers };
      return refusal;
    },
  },
];
