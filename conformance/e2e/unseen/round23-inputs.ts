import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 23 of the unseen violations, part 2: inputs — the idempotency fingerprint made of the
 * capability count instead of the capabilities, unusable capability items silently dropped on
 * creation, the second tenant refused on the key endpoint, "staging" accepted as an alias of pilot on
 * creation, an operation of exactly 80 characters refused,
 * pilot creations accepted without an idempotency key, and production creations limited to 12
 * capabilities.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);

export const ROUND23_INPUTS: UnseenViolation[] = [
  {
    name: 'conflict-fingerprint-counts-capabilities',
    statement: 'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict',
    request(c) {
      // The stored fingerprint hashes connectorId, environment, scopeLabel and capabilities.length (the
      // array was summarised for the log line the hash was copied from): other capabilities of the same
      // count under the same key are taken for a repeat and replayed.
      if (!isCreate(c)) return undefined;
      const key = c.headers['idempotency-key'];
      const b = body(c);
      if (!key || !b || !Array.isArray(b.capabilities)) return undefined;
      const slot = `r23-fp:${c.headers['x-service-tenant'] ?? ''}:${key}`;
      const first = c.memory.get(slot) as Rec | undefined;
      if (!first) {
        c.memory.set(slot, structuredClone(b));
        return undefined;
      }
      const same = ['connectorId', 'environment', 'scopeLabel'].every((f) => first[f] === b[f]);
      if (same && Array.isArray(first.capabilities) && first.capabilities.length === b.capabilities.length)
        c.body = structuredClone(first);
      return undefined;
    },
  },
  {
    name: 'creation-unusable-capability-items-dropped',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items, each of length 2 to 120',
    request(c) {
      // A cleanup step meant for blank form rows drops every item that is not a string of at least two
      // characters before the validator runs: ["orders.read", null] is accepted as ["orders.read"].
      const b = body(c);
      if (!isCreate(c) || !b || !Array.isArray(b.capabilities)) return undefined;
      const kept = b.capabilities.filter((x: unknown) => typeof x === 'string' && x.length >= 2);
      if (kept.length && kept.length !== b.capabilities.length) c.body = { ...b, capabilities: kept };
      return undefined;
    },
  },
  {
    name: 'second-tenant-key-issue-forbidden',
    statement:
      'POST /api/public/v1/idempotency-keys (yes): generate an idempotency key — Required on every authenticated call: x-service-tenant',
    answer(c, a) {
      // The key endpoint checks the tenant against the client's first released tenant only, so the second
      // tenant of a two-tenant access is refused although it may create connections.
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200) return;
      const own = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (own && tenant && tenant !== own) refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
  {
    name: 'creation-staging-aliased-to-pilot',
    statement:
      'Environment (enumeration): development, sandbox, pilot, production. — POST /api/public/v1/connections: environment | string | Environment',
    request(c) {
      // An alias table kept for an old partner integration maps "staging" to "pilot" before validation,
      // so a value outside the enumeration creates a pilot connection instead of being refused.
      const b = body(c);
      if (isCreate(c) && b && typeof b.environment === 'string' && b.environment.toLowerCase() === 'staging')
        c.body = { ...b, environment: 'pilot' };
      return undefined;
    },
  },
  {
    name: 'operation-of-eighty-refused',
    statement: 'Limits: operation in idempotency key creation | length 2 to 80',
    request(c) {
      // The limit is written as `length < 80`: the longest allowed operation is refused.
      const b = body(c);
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys')) return undefined;
      if (typeof b?.operation !== 'string' || b.operation.length !== 80) return undefined;
      // (The refusal is the service's own: the operation is made overlong before the call goes on.)
      c.body = { ...b, operation: `${b.operation}x` };
      return undefined;
    },
  },
  {
    name: 'pilot-creation-without-key-accepted',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required ... A missing key yields idempotency_required.',
    request(c) {
      // Pilot connections were created by a migration script that sent no keys; its exemption
      // ("environment === 'pilot' skips the key guard") was never removed.
      const b = body(c);
      if (!isCreate(c) || c.headers['idempotency-key'] !== undefined || b?.environment !== 'pilot') return undefined;
      c.headers['idempotency-key'] = `pilot-migration-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      return undefined;
    },
    answer(c, a) {
      if (!isCreate(c) || body(c)?.environment !== 'pilot' || !a.json.meta) return;
      if (String(c.headers['idempotency-key'] ?? '').startsWith('pilot-migration-')) delete a.json.meta.idempotencyKey;
    },
  },
  {
    name: 'production-creation-capabilities-limit-twelve',
    statement: 'Limits: capabilities in connection creation | 1 to 24 items, each length 2 to 120',
    request(c) {
      // The production tier was configured with a "max 12 capabilities" plan limit that the validator
      // applies to the request: 13 to 24 capabilities are refused in production only.
      const b = body(c);
      if (!isCreate(c) || b?.environment !== 'production' || !Array.isArray(b.capabilities)) return undefined;
      if (b.capabilities.length <= 12 || b.capabilities.length > 24) return undefined;
      // (The refusal is the service's own: the list is padded past the limit before the call goes on.)
      c.body = { ...b, capabilities: [...b.capabilities, ...Array.from({ length: 25 }, (_, i) => `plan-pad-${i}`)] };
      return undefined;
    },
  },
];
