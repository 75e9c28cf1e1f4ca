import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 24 of the unseen violations, part 2: inputs — an idempotency store shared by all tenants, a
 * fingerprint over the raw body text (key order), a key poisoned by one conflicting use, a providerId
 * filter losing the provider's last connector, a scope label of exactly 120 characters refused, a missing key refused
 * with status 400, and a conflicting creation that was written anyway.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
const keyOf = (c: ProxyCall) => c.headers['idempotency-key'];
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const store = (c: ProxyCall, slot: string) => {
  const m = (c.memory.get(slot) as Map<string, unknown> | undefined) ?? new Map<string, unknown>();
  c.memory.set(slot, m);
  return m;
};

export const ROUND24_INPUTS: UnseenViolation[] = [
  {
    name: 'idempotency-store-shared-across-tenants',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again — GET /api/public/v1/connections: connections of the tenant',
    answer(c, a) {
      // The idempotency store is keyed by the key alone: a second tenant that happens to use a key the
      // first tenant used, with the same content, gets the first tenant's connection replayed.
      const key = keyOf(c);
      if (!isCreate(c) || a.status !== 200 || !key) return;
      const seen = store(c, 'r24-keys') as Map<string, { tenant: string; body: string; json: Rec }>;
      const text = JSON.stringify(c.body);
      const first = seen.get(key);
      if (!first) {
        seen.set(key, { tenant: tenantOf(c), body: text, json: structuredClone(a.json) });
        return;
      }
      if (first.tenant === tenantOf(c) || first.body !== text) return;
      const meta = { ...(a.json.meta ?? {}), replayed: true, idempotencyKey: key };
      a.json = { ...structuredClone(first.json), meta };
    },
  },
  {
    name: 'fingerprint-over-raw-body-text',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again',
    request(c) {
      // The fingerprint hashes the raw request text: the same JSON object written with its fields in
      // another order (another client library, another serializer) is taken for different content.
      const key = keyOf(c);
      const b = body(c);
      if (!isCreate(c) || !key || !b) return undefined;
      const seen = store(c, 'r24-order') as Map<string, { order: string; json: string }>;
      const slot = `${tenantOf(c)}:${key}`;
      const order = Object.keys(b).join(',');
      const first = seen.get(slot);
      if (!first) {
        seen.set(slot, { order, json: JSON.stringify(sorted(b)) });
        return undefined;
      }
      if (first.order === order || first.json !== JSON.stringify(sorted(b))) return undefined;
      const a = {
        status: 200,
        headers: {},
        json: { meta: { requestId: `r24-${Date.now()}`, version: '2026-07-01', at: new Date().toISOString() } },
      };
      refuse(a, 409, 'idempotency_conflict', 'The key was used with different content.');
      return a;
    },
  },
  {
    name: 'conflict-poisons-key-for-original-content',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again',
    answer(c, a) {
      // On a conflict the store overwrites the key's fingerprint with the conflicting content, so the
      // original content sent again afterwards conflicts too instead of being replayed.
      const key = keyOf(c);
      if (!isCreate(c) || !key) return;
      const poisoned = store(c, 'r24-poison') as Map<string, string>;
      const slot = `${tenantOf(c)}:${key}`;
      if (a.status === 409 && a.json.error?.code === 'idempotency_conflict') {
        poisoned.set(slot, JSON.stringify(c.body));
        return;
      }
      const bad = poisoned.get(slot);
      if (a.status === 200 && a.json.meta?.replayed === true && bad !== undefined && bad !== JSON.stringify(c.body))
        refuse(a, 409, 'idempotency_conflict', 'The key was used with different content.');
    },
  },
  {
    name: 'provider-filtered-connectors-lose-last',
    statement:
      'GET /api/public/v1/connectors: Query parameter providerId | string | no (restricts the list) — data: count, connectors',
    answer(c, a) {
      // The providerId query pages with LIMIT count-1 (an off-by-one from a 1-based page helper): a
      // provider's last connector is missing whenever it has more than one.
      if (c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200 || !c.search.get('providerId')) return;
      const list = a.json.data?.connectors;
      if (!Array.isArray(list) || list.length < 2) return;
      list.pop();
      a.json.data.count = list.length;
    },
  },
  {
    name: 'scope-label-of-120-refused',
    statement: 'Limits: scopeLabel | length 2 to 120',
    request(c) {
      // The column is VARCHAR(120) but the validator counts the terminating character it reserves for a
      // C library: 120 characters are refused as too long.
      const b = body(c);
      if (!isCreate(c) || typeof b?.scopeLabel !== 'string' || [...b.scopeLabel].length !== 120) return undefined;
      const a = {
        status: 400,
        headers: {},
        json: { meta: { requestId: `r24-${Date.now()}`, version: '2026-07-01', at: new Date().toISOString() } },
      };
      refuse(a, 400, 'invalid_request', 'scopeLabel must be 2 to 119 characters long.');
      return a;
    },
  },
  {
    name: 'missing-key-refused-with-status-400',
    statement: 'Errors: idempotency_required | 428 | an idempotency key is mandatory for this call',
    answer(_c, a) {
      // The framework's header validator runs first and answers every missing header with 400; only the
      // code was mapped to the interface's.
      if (a.json.error?.code === 'idempotency_required' && a.status === 428) a.status = 400;
    },
  },
  {
    name: 'conflict-still-creates',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict (Modifying calls are repeat-safe through idempotency keys)',
    answer(c, a) {
      // The conflict is detected after the insert (a unique index on key+fingerprint fails late) and the
      // insert is not rolled back: the conflicting content exists as a connection of the tenant.
      const tenant = tenantOf(c);
      const extra = store(c, 'r24-ghosts') as Map<string, Rec[]>;
      if (isCreate(c) && a.status === 200 && a.json.data?.id) {
        c.memory.set(`r24-last:${tenant}`, structuredClone(a.json.data as Rec));
        return;
      }
      const last = c.memory.get(`r24-last:${tenant}`) as Rec | undefined;
      const b = body(c);
      if (isCreate(c) && a.status === 409 && a.json.error?.code === 'idempotency_conflict' && last && b) {
        const ghost: Rec = { ...structuredClone(last), ...b, id: `${String(last.id)}-c${extra.size + 1}` };
        ghost.capabilities = Array.isArray(b.capabilities)
          ? b.capabilities.map((x: unknown) => ({ capability: String(x), critical: false, idempotencyRequired: true }))
          : last.capabilities;
        extra.set(tenant, [...(extra.get(tenant) ?? []), ghost]);
        return;
      }
      if (c.method !== 'GET' || c.path !== P('/connections') || a.status !== 200) return;
      const list = a.json.data?.connections;
      const mine = extra.get(tenant);
      if (!Array.isArray(list) || !mine) return;
      list.push(...mine);
      a.json.data.count = list.length;
    },
  },
];

function sorted(o: Rec): Rec {
  return Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1)));
}
