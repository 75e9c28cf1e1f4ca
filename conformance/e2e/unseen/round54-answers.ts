import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 54, part 1: lists and answers against writes of the other address, the other tenant and the earlier version. */
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const recent = (at: unknown, ms = 3000) => typeof at === 'number' && Date.now() - at < ms;
const originalKey = new WeakMap<ProxyCall, string>();
const dropFromList = (data: Rec, ids: Set<unknown>) => {
  if (!Array.isArray(data?.connections)) return;
  const kept = (data.connections as Rec[]).filter((x) => !ids.has(x?.id));
  if (typeof data.count === 'number') data.count -= data.connections.length - kept.length;
  data.connections = kept;
};

export const ROUND54_ANSWERS: UnseenViolation[] = [
  {
    name: 'connections-read-on-main-right-after-alt-creation-omits-it',
    statement:
      'GET /api/public/v1/connections: connections of the tenant; data: count, connections (a read on the main address within three seconds of a creation on the second address)',
    answer(c, a) {
      // The main address reads a replica that the second address's writes reach only after a few seconds.
      home(c);
      if (isCreate(c) && c.base === 'alt' && a.status === 200 && a.json.meta?.replayed !== true && a.json.data?.id)
        c.memory.set('r54-alt-created', { id: a.json.data.id, at: Date.now(), tenant: tenantOf(c) });
      const w = c.memory.get('r54-alt-created') as { id: string; at: number; tenant: string } | undefined;
      if (isGet(c, '/connections') && c.base === 'main' && a.status === 200 && w && w.tenant === tenantOf(c))
        if (recent(w.at)) dropFromList(a.json.data, new Set([w.id]));
    },
  },
  {
    name: 'home-connections-right-after-second-tenant-creation-include-it',
    statement:
      'GET /api/public/v1/connections: connections of the tenant (a read within three seconds of a creation of the other tenant by the same client)',
    answer(c, a) {
      // The "just created" overlay that hides replica lag is keyed by the client id, not by client and tenant.
      const second = isSecond(c);
      if (isCreate(c) && second && a.status === 200 && a.json.data?.id)
        c.memory.set('r54-other-created', { conn: structuredClone(a.json.data), at: Date.now() });
      const w = c.memory.get('r54-other-created') as { conn: Rec; at: number } | undefined;
      if (!isGet(c, '/connections') || second || a.status !== 200 || !w || !recent(w.at)) return;
      const list = a.json.data?.connections;
      if (!Array.isArray(list) || list.some((x: Rec) => x?.id === w.conn.id)) return;
      list.unshift(structuredClone(w.conn));
      if (typeof a.json.data.count === 'number') a.json.data.count += 1;
    },
  },
  {
    name: 'replay-on-alt-of-main-creation-creates-again',
    statement:
      'What the service does: Modifying calls are repeat-safe through idempotency keys: the same key with the same content returns the same response again; the same interface is also offered under a second address (a repeat sent to the second address)',
    request(c) {
      // The idempotency store namespaces keys by the Host header, so a repeat through the other address is a new key.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      if (c.base === 'main') c.memory.set(`r54-main-key:${key}`, true);
      else if (c.memory.has(`r54-main-key:${key}`) && key.length <= 124) {
        originalKey.set(c, key);
        c.headers['idempotency-key'] = `${key}.alt`;
      }
      return undefined;
    },
    answer(c, a) {
      const key = originalKey.get(c);
      if (key && a.json.meta && typeof a.json.meta.idempotencyKey === 'string') a.json.meta.idempotencyKey = key;
    },
  },
  {
    name: 'second-tenant-creation-with-home-key-answered-with-home-connection',
    statement:
      'What the service does: A tenant (identified by a tenant identifier in a request header) creates connections; POST /connections: data: the Connection (the other tenant creating with a key and content the first tenant used)',
    answer(c, a) {
      // The idempotency record is looked up by key and body hash only; the tenant is not part of the record's key.
      const second = isSecond(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || a.status !== 200 || !a.json.data) return;
      const body = JSON.stringify(c.body ?? null);
      const stored = c.memory.get(`r54-keyed:${key}`) as { body: string; data: Rec } | undefined;
      if (!second) {
        if (!stored) c.memory.set(`r54-keyed:${key}`, { body, data: structuredClone(a.json.data) });
      } else if (stored && stored.body === body && a.json.data.id !== stored.data.id) {
        a.json.data = structuredClone(stored.data);
        if (a.json.meta) a.json.meta.replayed = true;
      }
    },
  },
  {
    name: 'issued-key-repeats-key-of-last-creation',
    statement:
      'POST /api/public/v1/idempotency-keys: generate an idempotency key; Errors: idempotency_conflict remedy: use a new key for each new operation (a key issued after a creation)',
    answer(c, a) {
      // The generator returns the request context's key when one is set, and the pooled context keeps the last creation's.
      home(c);
      const tenant = tenantOf(c);
      if (isCreate(c) && a.status === 200 && c.headers['idempotency-key'])
        c.memory.set(`r54-last-key:${tenant}`, c.headers['idempotency-key']);
      const last = c.memory.get(`r54-last-key:${tenant}`);
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && a.status === 200 && a.json.data && last)
        a.json.data.idempotencyKey = last;
    },
  },
  {
    name: 'earlier-version-creation-missing-from-current-list',
    statement:
      'GET /api/public/v1/connections: connections of the tenant; Versioning: No change that requires adaptation of clients exists in the current version (a connection created under 2026-06-12, listed without a version)',
    answer(c, a) {
      // Creations under the earlier version land in the legacy table, which the current list query does not join.
      home(c);
      const key = `r54-legacy:${tenantOf(c)}`;
      const ids = (c.memory.get(key) as Set<unknown> | undefined) ?? new Set<unknown>();
      if (isCreate(c) && earlier(c) && a.status === 200 && a.json.data?.id) c.memory.set(key, ids.add(a.json.data.id));
      if (isGet(c, '/connections') && !earlier(c) && a.status === 200 && ids.size) dropFromList(a.json.data, ids);
    },
  },
  {
    name: 'connections-count-right-after-other-tenant-read-is-theirs',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection) (a read within three seconds of the other tenant’s read)',
    answer(c, a) {
      // The count is memoised per client id for a few seconds; the tenant was left out of the memo key.
      const second = isSecond(c);
      if (!isGet(c, '/connections') || a.status !== 200 || typeof a.json.data?.count !== 'number') return;
      const memo = c.memory.get('r54-count-memo') as { count: number; at: number; second: boolean } | undefined;
      if (memo && memo.second !== second && recent(memo.at)) a.json.data.count = memo.count;
      else c.memory.set('r54-count-memo', { count: a.json.data.count, at: Date.now(), second });
    },
  },
  {
    name: 'alt-answer-right-after-main-answer-repeats-request-id',
    statement:
      'Meta: requestId | identifier of this call, quoted for support queries (a call on the second address right after one on the main address)',
    answer(c, a) {
      // The second address runs a request-id middleware that takes an inbound trace id, which the edge fills with the last one.
      home(c);
      const id = a.json.meta?.requestId;
      if (typeof id !== 'string') return;
      const last = c.memory.get('r54-main-rid') as { id: string; at: number } | undefined;
      if (c.base === 'main') c.memory.set('r54-main-rid', { id, at: Date.now() });
      else if (last && recent(last.at, 2000) && last.id !== id) {
        a.json.meta.requestId = last.id;
        if (a.headers['x-request-id']) a.headers['x-request-id'] = last.id;
      }
    },
  },
];
