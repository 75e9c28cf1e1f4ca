import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 24 of the unseen violations, part 1: answers — a filtered connector list counting the whole
 * catalog, a defaulted check answered without its environment, replays without their key, the tenant's
 * list showing other tenants' connections, listed pilot connections shown as sandbox, listed capability
 * entries without their false flags, production creations marked replayed the first time, and the
 * alternate address serving a provider list one entry short.
 */
type Rec = Record<string, any>;
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');
const ok = (a: { status: number }) => a.status === 200;

export const ROUND24_ANSWERS: UnseenViolation[] = [
  {
    name: 'filtered-connectors-count-unfiltered-total',
    statement: 'GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector)',
    answer(c, a) {
      // The count comes from a COUNT(*) that was written before the providerId filter was added to the
      // query: a providerId-filtered list counts the whole catalog.
      if (c.method !== 'GET' || c.path !== P('/connectors') || !ok(a)) return;
      const list = a.json.data?.connectors;
      if (!Array.isArray(list)) return;
      if (!c.search.has('providerId') && !c.search.has('capability') && !c.search.has('category')) {
        c.memory.set('r24-total', list.length);
        return;
      }
      const total = c.memory.get('r24-total');
      if (c.search.has('providerId') && typeof total === 'number' && total > list.length) a.json.data.count = total;
    },
  },
  {
    name: 'defaulted-check-omits-environment',
    statement:
      'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment) — default sandbox',
    answer(c, a) {
      // The answer echoes the environment the caller sent; when none was sent the field stays undefined
      // and the serializer drops it (the default is applied later, inside the policy engine).
      if (c.method !== 'POST' || c.path !== P('/capabilities') || !ok(a)) return;
      const b = c.body as Rec | undefined;
      if (b && typeof b === 'object' && b.environment === undefined && a.json.data) delete a.json.data.environment;
    },
  },
  {
    name: 'replay-omits-idempotency-key',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true and meta.idempotencyKey set',
    answer(c, a) {
      // The replay path rebuilds meta from the stored answer, which was stored before the key was added.
      if (isCreate(c) && ok(a) && a.json.meta?.replayed === true) delete a.json.meta.idempotencyKey;
    },
  },
  {
    name: 'list-shows-other-tenants-connections',
    statement: 'GET /api/public/v1/connections: connections of the tenant',
    answer(c, a) {
      // The list cache is keyed by the access (token) instead of by access and tenant: connections the
      // same access created for its other tenant show up in this tenant's list.
      const tenant = c.headers['x-service-tenant'] ?? '';
      home(c);
      const made = (c.memory.get('r24-made') as Map<string, Rec[]> | undefined) ?? new Map<string, Rec[]>();
      c.memory.set('r24-made', made);
      if (isCreate(c) && ok(a) && a.json.data?.id && a.json.meta?.replayed !== true) {
        made.set(tenant, [...(made.get(tenant) ?? []), structuredClone(a.json.data as Rec)]);
        return;
      }
      if (!isList(c) || !ok(a) || !Array.isArray(a.json.data?.connections)) return;
      const list = a.json.data.connections as Rec[];
      const ids = new Set(list.map((x) => x?.id));
      for (const [t, rows] of made) if (t !== tenant) for (const r of rows) if (!ids.has(r.id)) list.push(r);
      a.json.data.count = list.length;
    },
  },
  {
    name: 'listed-pilot-environment-as-sandbox',
    statement: 'Connection: environment | Environment — Environment: development, sandbox, pilot, production',
    answer(c, a) {
      // The list maps environments through a table that predates "pilot" and falls back to sandbox.
      if (!isList(c) || !ok(a) || !Array.isArray(a.json.data?.connections)) return;
      for (const x of a.json.data.connections as Rec[]) if (x?.environment === 'pilot') x.environment = 'sandbox';
    },
  },
  {
    name: 'listed-capability-entries-omit-false-flags',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    answer(c, a) {
      // The list's serializer drops falsy fields to save bytes; the creation answer uses another one.
      if (!isList(c) || !ok(a) || !Array.isArray(a.json.data?.connections)) return;
      for (const x of a.json.data.connections as Rec[])
        for (const e of Array.isArray(x?.capabilities) ? (x.capabilities as Rec[]) : []) {
          if (e?.critical === false) delete e.critical;
          if (e?.idempotencyRequired === false) delete e.idempotencyRequired;
        }
    },
  },
  {
    name: 'production-first-creation-marked-replayed',
    statement: 'Meta: replayed | boolean | no | true when the response comes from an earlier identical operation',
    answer(c, a) {
      // Production creations go through a two-phase write whose second phase reads the stored answer
      // back through the replay path, flagging the very first answer as replayed.
      if (!isCreate(c) || !ok(a) || a.json.data?.environment !== 'production' || !a.json.meta) return;
      a.json.meta.replayed = true;
      if (c.headers['idempotency-key']) a.json.meta.idempotencyKey = c.headers['idempotency-key'];
    },
  },
  {
    name: 'alt-providers-list-one-short',
    statement:
      'The same interface is also offered under a second main-domain address {alt_base_url} — GET /api/public/v1/providers: list providers',
    answer(c, a) {
      // The alternate region's catalog replica missed the newest provider import (its count agrees with
      // its own list, so the answer looks consistent on its own).
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/providers') || !ok(a)) return;
      const list = a.json.data?.providers;
      if (!Array.isArray(list) || list.length < 2) return;
      list.pop();
      a.json.data.count = list.length;
    },
  },
];
