import { randomUUID } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { CURRENT, EARLIER, earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 57, part 3: writes crossed between places (alternate address to main, second tenant to first, earlier version to current). */
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const setOf = (c: ProxyCall, slot: string) => {
  const s = (c.memory.get(slot) as Set<string> | undefined) ?? new Set<string>();
  c.memory.set(slot, s);
  return s;
};
const mapOf = <T>(c: ProxyCall, slot: string) => {
  const m = (c.memory.get(slot) as Map<string, T> | undefined) ?? new Map<string, T>();
  c.memory.set(slot, m);
  return m;
};
/** Ids of connections created under the earlier version (any tenant, either address). */
const noteEarlierCreation = (c: ProxyCall, data: Rec | undefined, slot: string) => {
  if (isCreate(c) && earlier(c) && typeof data?.id === 'string') setOf(c, slot).add(data.id);
};
/** The key a client sent, for calls whose key the main address swapped for its local one. */
const sentKeys = new WeakMap<ProxyCall, string>();
const listedUnderCurrent = (c: ProxyCall) => isGet(c, '/connections') && !earlier(c);

export const ROUND57_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'main-repeat-of-alt-creation-creates-again',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again; the same interface is also offered under a second main-domain address (created at the alternate address, repeated at the main one)',
    request(c) {
      // Each address keeps its idempotency records in its own region's cache; the main one has never seen the alternate's key.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const altKeys = mapOf<string>(c, 'r57-alt-keys');
      const mainSeen = setOf(c, 'r57-main-seen');
      const slot = `${tenantOf(c)}|${key}`;
      if (c.base === 'alt') {
        if (!altKeys.has(slot) && !mainSeen.has(slot)) altKeys.set(slot, `${key}.main-${randomUUID().slice(0, 8)}`);
        return undefined;
      }
      const local = altKeys.get(slot);
      if (!local) {
        mainSeen.add(slot);
        return undefined;
      }
      sentKeys.set(c, key);
      c.headers['idempotency-key'] = local;
      return undefined;
    },
    answer(c, a) {
      home(c);
      const sent = sentKeys.get(c);
      if (sent && a.json.meta && typeof a.json.meta.idempotencyKey === 'string') a.json.meta.idempotencyKey = sent;
    },
  },
  {
    name: 'main-replay-of-alt-creation-not-marked-replayed',
    statement:
      'POST /api/public/v1/connections: returns the same response again, with meta.replayed true and meta.idempotencyKey set (created at the alternate address, repeated at the main one)',
    answer(c, a) {
      // The main address reads the shared store but sets the replay marker only for records its own node wrote.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || a.status !== 200) return;
      const slot = `${tenantOf(c)}|${key}`;
      const altMade = setOf(c, 'r57-alt-made');
      if (c.base === 'alt' && a.json.meta?.replayed !== true) altMade.add(slot);
      if (c.base === 'main' && altMade.has(slot) && a.json.meta?.replayed === true) {
        delete a.json.meta.replayed;
        delete a.json.meta.idempotencyKey;
      }
    },
  },
  {
    name: 'home-repeat-of-second-tenant-key-answered-with-its-connection',
    statement:
      'Authentication: x-service-tenant | identifier of the tenant for which the call applies; GET /api/public/v1/connections: connections of the tenant (a key and content the second tenant used first, sent by the first tenant)',
    answer(c, a) {
      // The replay store is keyed by the Idempotency-Key and body hash only; the tenant column was left out of the unique index.
      const second = isSecond(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || a.status !== 200) return;
      const stored = mapOf<{ body: string; data: Rec }>(c, 'r57-second-creations');
      const body = JSON.stringify(c.body);
      if (second) {
        if (!stored.has(key)) stored.set(key, { body, data: structuredClone(a.json.data as Rec) });
        return;
      }
      const first = stored.get(key);
      if (!first || first.body !== body) return;
      a.json.data = structuredClone(first.data);
      a.json.meta = { ...a.json.meta, replayed: true, idempotencyKey: key };
    },
  },
  {
    name: 'earlier-version-creations-listed-under-current-with-restaurant-id',
    statement:
      'Connection: scopeLabel | string; GET /api/public/v1/connections: connections (array of Connection) (connections created under 2026-06-12, listed under 2026-07-01)',
    answer(c, a) {
      // Rows written by the 2026-06-12 handler carry schema_version 1, and the list maps those with the old presenter.
      home(c);
      if (a.status === 200) noteEarlierCreation(c, a.json.data, 'r57-earlier-ids-a');
      if (!listedUnderCurrent(c) || a.status !== 200) return;
      const ids = setOf(c, 'r57-earlier-ids-a');
      for (const con of (a.json.data?.connections ?? []) as Rec[])
        if (ids.has(con?.id) && 'scopeLabel' in con) {
          con.restaurantId = con.scopeLabel;
          delete con.scopeLabel;
        }
    },
  },
  {
    name: 'earlier-version-creations-listed-capabilities-lack-idempotency-flag',
    statement:
      'Connection: capabilities | each entry: capability (string), critical (boolean), idempotencyRequired (boolean) (connections created under 2026-06-12, listed under 2026-07-01)',
    answer(c, a) {
      // The idempotency_required column was added with a NULL default; old rows come back without it and the mapper omits nulls.
      home(c);
      if (a.status === 200) noteEarlierCreation(c, a.json.data, 'r57-earlier-ids-b');
      if (!listedUnderCurrent(c) || a.status !== 200) return;
      const ids = setOf(c, 'r57-earlier-ids-b');
      for (const con of (a.json.data?.connections ?? []) as Rec[])
        if (ids.has(con?.id))
          for (const e of Array.isArray(con.capabilities) ? (con.capabilities as Rec[]) : [])
            if (e && typeof e === 'object') delete e.idempotencyRequired;
    },
  },
  {
    name: 'current-list-holding-earlier-version-creations-reports-earlier-version',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (a list read under 2026-07-01 that holds connections created under 2026-06-12)',
    answer(c, a) {
      // The list negotiates its version from the oldest row's schema version, so one old row makes the whole answer "2026-06-12".
      home(c);
      if (a.status === 200) noteEarlierCreation(c, a.json.data, 'r57-earlier-ids-c');
      if (!listedUnderCurrent(c) || a.status !== 200 || a.json.meta?.version !== CURRENT) return;
      const ids = setOf(c, 'r57-earlier-ids-c');
      if (((a.json.data?.connections ?? []) as Rec[]).some((con) => ids.has(con?.id))) a.json.meta.version = EARLIER;
    },
  },
];
