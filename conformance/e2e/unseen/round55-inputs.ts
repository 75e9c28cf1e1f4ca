import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { CURRENT, earlier, type Rec } from './round44-common.ts';

/** Round 55, part 2: the earlier version 2026-06-12 beside the current one, and a check at 120 characters. */
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
/** The version a creation under a key was first answered in (per tenant and key). */
const firstVersion = (c: ProxyCall, a: ProxyAnswer, tag: string) => {
  const key = c.headers['idempotency-key'];
  if (!isCreate(c) || !key || a.status !== 200) return undefined;
  const slot = `${tag}:${tenantOf(c)}:${key}`;
  const now = earlier(c) ? 'earlier' : 'current';
  if (!c.memory.has(slot)) c.memory.set(slot, now);
  return { first: c.memory.get(slot) as string, now };
};

export const ROUND55_INPUTS: UnseenViolation[] = [
  {
    name: 'earlier-created-connection-listed-without-critical-flags',
    statement:
      'Connection: capabilities | each entry: capability (string), critical (boolean), idempotencyRequired (boolean); Versioning: No change that requires adaptation of clients exists in the current version (a connection created under 2026-06-12, listed under 2026-07-01)',
    answer(c, a) {
      // Creations under 2026-06-12 go through the legacy writer, which never filled the flag columns added later.
      home(c);
      const slot = `r55-legacy:${tenantOf(c)}`;
      const ids = (c.memory.get(slot) as Set<unknown> | undefined) ?? new Set<unknown>();
      if (isCreate(c) && earlier(c) && a.status === 200 && a.json.data?.id) c.memory.set(slot, ids.add(a.json.data.id));
      if (!isGet(c, '/connections') || earlier(c) || a.status !== 200 || !Array.isArray(a.json.data?.connections))
        return;
      for (const con of a.json.data.connections as Rec[])
        if (ids.has(con?.id) && Array.isArray(con.capabilities))
          con.capabilities = (con.capabilities as Rec[]).map((e) => ({ capability: e?.capability }));
    },
  },
  {
    name: 'earlier-version-creation-answers-restaurant-id',
    statement:
      'Connection: scopeLabel | string | descriptive name; Versioning: An earlier published version is 2026-06-12 (a creation asked for version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 serializer was written from the sample call and still names the field restaurantId.
      home(c);
      if (!isCreate(c) || !earlier(c) || a.status !== 200 || !a.json.data || !('scopeLabel' in a.json.data)) return;
      a.json.data.restaurantId = a.json.data.scopeLabel;
      delete a.json.data.scopeLabel;
    },
  },
  {
    name: 'earlier-version-idempotency-required-lacks-request-id',
    statement:
      'Errors: Error responses use the failure envelope. They contain the request identifier (meta.requestId) (a 428 idempotency_required under 2026-06-12)',
    answer(c, a) {
      // The key guard of the 2026-06-12 router is mounted before the request-id middleware, so its refusals have none.
      home(c);
      if (earlier(c) && a.status === 428 && a.json.meta) delete a.json.meta.requestId;
    },
  },
  {
    name: 'cross-version-replay-lacks-meta-idempotency-key',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true and meta.idempotencyKey set (a repeat sent under the other version)',
    answer(c, a) {
      // A replay whose stored version differs goes through the "upgrade stored answer" path, which rebuilds meta without the key.
      home(c);
      const v = firstVersion(c, a, 'r55-xv');
      if (v && v.first !== v.now && a.json.meta?.replayed === true) delete a.json.meta.idempotencyKey;
    },
  },
  {
    name: 'earlier-version-replay-of-current-creation-capabilities-as-strings',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again; Connection: capabilities | array of object (a current creation repeated under 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 adapter maps stored answers to its old shape, where capabilities were a list of names.
      home(c);
      const v = firstVersion(c, a, 'r55-xs');
      if (v?.first !== 'current' || v.now !== 'earlier' || a.json.meta?.replayed !== true) return;
      if (Array.isArray(a.json.data?.capabilities))
        a.json.data.capabilities = (a.json.data.capabilities as Rec[]).map((e) => e?.capability);
    },
  },
  {
    name: 'earlier-version-providers-category-filter-ignored',
    statement:
      'GET /api/public/v1/providers: category | string | no | restricts to one category (asked for version 2026-06-12)',
    request(c) {
      // The 2026-06-12 handler reads filter[category], the name of its first draft, and ignores category.
      home(c);
      if (isGet(c, '/providers') && earlier(c) && c.search.has('category')) c.search.delete('category');
      return undefined;
    },
  },
  {
    name: 'key-issue-without-key-answered-428',
    statement:
      'Endpoints: POST /api/public/v1/idempotency-keys | yes | generate an idempotency key (auth "yes", not "yes + key"; called without an Idempotency-Key)',
    request(c) {
      // The gateway's "modifying calls need a key" rule (change of 2026-06-12) was written as every POST but the check.
      home(c);
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || !c.headers.authorization) return undefined;
      if (c.headers['idempotency-key']) return undefined;
      return {
        status: 428,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        json: {
          ok: false,
          error: { code: 'idempotency_required', message: 'An idempotency key is mandatory for this call.' },
          meta: {
            requestId: `req_r55_${Date.now().toString(36)}`,
            version: earlier(c) ? '2026-06-12' : CURRENT,
            at: new Date().toISOString(),
          },
        },
      };
    },
  },
  {
    name: 'capability-of-120-echoed-cut-to-119',
    statement:
      'POST /api/public/v1/capabilities: capability | string | yes | length 2 to 120; CapabilityDecision: capability (a capability of exactly 120 characters)',
    answer(c, a) {
      // The decision copies the name into a fixed buffer with room for a terminator: substring(0, MAX - 1).
      home(c);
      const asked = bodyOf(c.body).capability;
      const d = a.json.data?.decision as Rec | undefined;
      if (c.method === 'POST' && c.path === P('/capabilities') && a.status === 200 && d && typeof asked === 'string')
        if (asked.length === 120 && d.capability === asked) d.capability = asked.slice(0, 119);
    },
  },
];
