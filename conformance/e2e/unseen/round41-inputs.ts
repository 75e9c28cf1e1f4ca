import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 41 of the unseen violations, part 2: inputs — alternate key issues refusing dotted operations, a
 * second tenant's key conflicts served as replays, a second tenant's one-capability creations refused,
 * earlier-version development creations refused, alternate key-less creations answered as conflicts, a
 * second tenant's 120-character capability items refused, and earlier-version registrations without a key.
 */
type Rec = Record<string, any>;
const EARLIER = '2026-06-12';
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const bodyOf = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** Sends a copy with one field changed, so the simulator's own refusal (headers, meta) answers. */
const withField = (c: ProxyCall, field: string, value: unknown) => {
  c.body = { ...bodyOf(c), [field]: value };
};

export const ROUND41_INPUTS: UnseenViolation[] = [
  {
    name: 'alt-dotted-operation-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80; short name of the operation, e.g. connection.create) (under {alt_base_url} too)',
    request(c) {
      // The alternate region's validator reuses the tenant-slug rule, which has no dot.
      home(c);
      const op = bodyOf(c)?.operation;
      if (
        c.base === 'alt' &&
        c.method === 'POST' &&
        c.path === P('/idempotency-keys') &&
        typeof op === 'string' &&
        op.includes('.')
      )
        withField(c, 'operation', 'x');
      return undefined;
    },
  },
  {
    name: 'second-tenant-key-conflict-served-as-replay',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict (a second tenant’s creation too)',
    answer(c, a) {
      // The second tenant's idempotency store matches on the key alone and serves the stored answer.
      const second = isSecond(c);
      const key = c.headers['idempotency-key'];
      if (!second || !isCreate(c) || !key) return;
      const stored = c.memory.get(`r41-second-key:${key}`) as ProxyAnswer['json'] | undefined;
      if (a.status === 200 && !stored) c.memory.set(`r41-second-key:${key}`, structuredClone(a.json));
      if (a.status === 409 && a.json.error?.code === 'idempotency_conflict' && stored) {
        a.status = 200;
        a.json = { ...structuredClone(stored), meta: { ...a.json.meta, idempotencyKey: key, replayed: true } };
      }
    },
  },
  {
    name: 'second-tenant-single-capability-creation-refused',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items (a second tenant’s creation with one item too)',
    request(c) {
      // The second tenant's plan check demands a "bundle" of two capabilities at least.
      const second = isSecond(c);
      const caps = bodyOf(c)?.capabilities;
      if (second && isCreate(c) && Array.isArray(caps) && caps.length === 1) withField(c, 'capabilities', []);
      return undefined;
    },
  },
  {
    name: 'earlier-version-development-creation-refused',
    statement:
      'POST /api/public/v1/connections: environment | Environment; Environment: development, sandbox, pilot, production (with Service-Version 2026-06-12 too)',
    request(c) {
      // The frozen 2026-06-12 handler's enum predates the development environment.
      home(c);
      if (c.headers['service-version'] === EARLIER && isCreate(c) && bodyOf(c)?.environment === 'development')
        withField(c, 'environment', 'develop');
      return undefined;
    },
  },
  {
    name: 'alt-missing-key-answered-conflict',
    statement:
      'POST /api/public/v1/connections: A missing key yields idempotency_required; Errors: idempotency_required | 428 (under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's key middleware treats "no key" as the empty key, which an earlier call used.
      home(c);
      if (c.base === 'alt' && a.json.error?.code === 'idempotency_required')
        refuse(a, 409, 'idempotency_conflict', 'The idempotency key was used with different content.');
    },
  },
  {
    name: 'second-tenant-capability-item-of-120-refused',
    statement:
      'Limits: capabilities in connection creation | 1 to 24 items, each length 2 to 120 (a second tenant’s creation too)',
    request(c) {
      // The second tenant's capability column is VARCHAR(119) and the validator reads its length from there.
      const second = isSecond(c);
      const caps = bodyOf(c)?.capabilities;
      if (second && isCreate(c) && Array.isArray(caps) && caps.some((x) => typeof x === 'string' && x.length === 120))
        withField(
          c,
          'capabilities',
          caps.map((x) => (typeof x === 'string' && x.length === 120 ? `${x}y` : x)),
        );
      return undefined;
    },
  },
  {
    name: 'earlier-version-webhook-registration-without-key-accepted',
    statement:
      'Versioning: Change of 2026-06-12 (security): modifying calls require an idempotency key; POST /api/public/v1/webhooks: Headers: Idempotency-Key',
    request(c) {
      // The 2026-06-12 webhook handler is mounted before the key middleware, so a missing key gets one invented.
      home(c);
      if (
        c.headers['service-version'] === EARLIER &&
        c.method === 'POST' &&
        c.path === P('/webhooks') &&
        !c.headers['idempotency-key']
      )
        c.headers['idempotency-key'] = `auto-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      return undefined;
    },
  },
];
