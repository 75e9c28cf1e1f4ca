import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 16 of the unseen violations, part 2: answers wrong under one condition — a replay with its
 * capability entries reversed, a filtered provider list answered as a bare array, labels cut to a
 * 100-character column, a decision whose key flag copies the critical flag, listed labels joined by
 * connector, older connections dated in epoch seconds, the second tenant's count taken from the first,
 * a replay that serves the rate-limit headers stored with it, a capability filter that skips each
 * connector's first entry, and an issued key's operation folded to lower case.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');
const replayed = (c: ProxyCall, a: ProxyAnswer) => isCreate(c) && ok(a) && a.json.meta?.replayed === true;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
/** Every connection record an answer carries: a creation's data or a list's entries. */
const connectionsOf = (c: ProxyCall, a: ProxyAnswer): Rec[] => {
  if (!ok(a)) return [];
  if (isCreate(c) && a.json.data && typeof a.json.data === 'object') return [a.json.data as Rec];
  if (isList(c) && Array.isArray(a.json.data?.connections)) return a.json.data.connections as Rec[];
  return [];
};

export const ROUND16_ANSWERS: UnseenViolation[] = [
  {
    name: 'replay-capabilities-reversed',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true',
    answer(c, a) {
      // The replay rebuilds the entries from a join table read in descending insertion order.
      if (replayed(c, a) && Array.isArray(a.json.data?.capabilities) && a.json.data.capabilities.length > 1)
        a.json.data.capabilities = [...a.json.data.capabilities].reverse();
    },
  },
  {
    name: 'category-filtered-providers-data-as-array',
    statement:
      'GET /api/public/v1/providers: data: count (integer), providers (array of Provider) — Success envelope: data | object | yes',
    answer(c, a) {
      // The filtered branch returns the repository result directly instead of the wrapped page.
      if (c.method !== 'GET' || c.path !== P('/providers') || !c.search.get('category') || !ok(a)) return;
      if (Array.isArray(a.json.data?.providers)) a.json.data = a.json.data.providers;
    },
  },
  {
    name: 'scope-label-cut-to-100-characters',
    statement: 'Limits: scopeLabel | length 2 to 120 (Connection: scopeLabel — the label sent is the label stored)',
    answer(c, a) {
      // The column is VARCHAR(100) and the database truncates silently in non-strict mode.
      for (const x of connectionsOf(c, a))
        if (typeof x.scopeLabel === 'string' && x.scopeLabel.length > 100) x.scopeLabel = x.scopeLabel.slice(0, 100);
    },
  },
  {
    name: 'decision-idempotency-flag-copies-critical',
    statement:
      'CapabilityDecision: idempotencyRequired | boolean (Capability: idempotencyRequired — whether calls using this capability need an idempotency key)',
    answer(c, a) {
      // A refactoring mapped both flags from the same column; it only shows for capabilities where they differ.
      const d = a.json.data?.decision as Rec | undefined;
      if (c.method === 'POST' && c.path === P('/capabilities') && ok(a) && d && typeof d.critical === 'boolean')
        d.idempotencyRequired = d.critical;
    },
  },
  {
    name: 'listed-scope-label-joined-by-connector',
    statement:
      'GET /api/public/v1/connections: connections (array of Connection) — Connection: scopeLabel | descriptive name, e.g. the name of the venue',
    answer(c, a) {
      // The list joins the label table on connectorId instead of the connection id: the first label wins.
      if (!isList(c)) return;
      const first = new Map<string, string>();
      for (const x of connectionsOf(c, a)) {
        const label = first.get(x.connectorId);
        if (label === undefined) first.set(x.connectorId, x.scopeLabel);
        else x.scopeLabel = label;
      }
    },
  },
  {
    name: 'listed-older-created-at-epoch-seconds',
    statement: 'Connection: createdAt | string, date-time',
    answer(c, a) {
      // Rows moved to the archive table after a second keep the raw integer timestamp of that table.
      if (!isList(c)) return;
      for (const x of connectionsOf(c, a)) {
        const t = Date.parse(String(x.createdAt));
        if (Number.isFinite(t) && Date.now() - t > 1500) x.createdAt = Math.floor(t / 1000);
      }
    },
  },
  {
    name: 'second-tenant-count-from-first-tenant',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection) — the connections of the tenant',
    answer(c, a) {
      // The count is served from a cache keyed by client, not by tenant, so the first tenant's count sticks.
      if (!isList(c) || !ok(a) || typeof a.json.data?.count !== 'number') return;
      const mine = home(c);
      if (!mine || tenantOf(c) === mine) {
        c.memory.set('r16-count', a.json.data.count);
        return;
      }
      const cached = c.memory.get('r16-count');
      if (typeof cached === 'number') a.json.data.count = cached;
    },
  },
  {
    name: 'replay-serves-stored-rate-limit-headers',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // The replay cache stores the whole response, headers included, and sends them back unchanged.
      if (!isCreate(c) || !ok(a)) return;
      const key = `r16-rl:${tenantOf(c)}:${c.headers['idempotency-key'] ?? ''}`;
      const stored = c.memory.get(key) as Record<string, string> | undefined;
      if (a.json.meta?.replayed === true && stored) {
        for (const [k, v] of Object.entries(stored)) a.headers[k] = v;
      } else if (a.json.meta?.replayed !== true) {
        const h: Record<string, string> = {};
        for (const k of ['x-ratelimit-limit', 'x-ratelimit-remaining'])
          if (a.headers[k] !== undefined) h[k] = a.headers[k];
        c.memory.set(key, h);
      }
    },
  },
  {
    name: 'capability-filter-skips-each-connectors-first-capability',
    statement:
      'GET /api/public/v1/connectors: capability | string | no (a filter: the connectors offering that capability)',
    answer(c, a) {
      // The matcher loop starts at index 1 (the first entry once held the primary capability), so a first-entry match is left out.
      const want = c.search.get('capability');
      const list = a.json.data?.connectors as Rec[] | undefined;
      if (c.method !== 'GET' || c.path !== P('/connectors') || !want || !ok(a) || !Array.isArray(list)) return;
      const kept = list.filter((x) => !Array.isArray(x.capabilities) || x.capabilities.slice(1).includes(want));
      a.json.data.connectors = kept;
      if (typeof a.json.data.count === 'number') a.json.data.count = kept.length;
    },
  },
  {
    name: 'issued-key-operation-case-folded',
    statement:
      'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string …). data: idempotencyKey (string), operation (string), expiresAt (date-time)',
    answer(c, a) {
      // Operation names are normalised to lower case for the lookup table, and the normalised name is answered.
      const d = a.json.data as Rec | undefined;
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && ok(a) && typeof d?.operation === 'string')
        d.operation = d.operation.toLowerCase();
    },
  },
];
