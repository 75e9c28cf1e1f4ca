import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/** Round 59, part 2: idempotent writes and what the lists say after them (replays, key spellings, filters, counts). */
const keyOf = (c: ProxyCall) => c.headers['idempotency-key'];
const isRead = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const listOf = (a: { status: number; json: Rec }, field: string) =>
  a.status === 200 && Array.isArray(a.json.data?.[field]) ? (a.json.data[field] as Rec[]) : undefined;

export const ROUND59_INPUTS: UnseenViolation[] = [
  {
    name: 'refused-creation-replay-not-marked-replayed',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true and meta.idempotencyKey set (a key whose first call was refused 404 or 409 capability_denied)',
    answer(c, a) {
      // The replay decorator only runs on the success path; stored refusals are re-sent through the error handler.
      home(c);
      if (!isCreate(c) || a.status < 400 || a.json.meta?.replayed !== true) return;
      delete a.json.meta.replayed;
      delete a.json.meta.idempotencyKey;
    },
  },
  {
    name: 'webhook-registration-replay-answers-new-receiver-id',
    statement:
      'What the service does: Modifying calls are repeat-safe through idempotency keys: the same key with the same content returns the same response again (POST /api/public/v1/webhooks sent twice with one key)',
    answer(c, a) {
      // The replay rebuilds the receiver view from the request instead of the stored record and mints a fresh id.
      home(c);
      if (c.method !== 'POST' || c.path !== P('/webhooks') || a.status !== 200 || a.json.meta?.replayed !== true)
        return;
      if (typeof a.json.data?.id === 'string') a.json.data.id = `wh_${Math.random().toString(36).slice(2, 18)}`;
    },
  },
  {
    name: 'keys-differing-after-last-dot-share-a-record',
    statement:
      'Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ (letters, digits, dot, ...); Errors: idempotency_conflict: use a new key for each new operation (two keys that differ only after their last dot)',
    request(c) {
      // The store strips a ".<suffix>" it takes for a client's retry counter ("order-17.2" -> "order-17") before lookup.
      home(c);
      const key = keyOf(c);
      if (c.method !== 'POST' || !key) return undefined;
      const cut = key.lastIndexOf('.');
      if (cut < 8) return undefined;
      const stem = key.slice(0, cut);
      c.memory.set(`r59-stem:${stem}`, key);
      c.headers['idempotency-key'] = stem;
      return undefined;
    },
    answer(c, a) {
      const sent = c.headers['idempotency-key'];
      const original = sent ? (c.memory.get(`r59-stem:${sent}`) as string | undefined) : undefined;
      if (original && a.json.meta?.idempotencyKey === sent) a.json.meta.idempotencyKey = original;
    },
  },
  {
    name: 'issued-key-echo-strips-idk-prefix',
    statement:
      'Meta: idempotencyKey | the key used for the call (a creation sent with a key issued by POST /api/public/v1/idempotency-keys)',
    answer(c, a) {
      // The store indexes issued keys by their random part; the echo is taken from the index, not from the header.
      home(c);
      const key = a.json.meta?.idempotencyKey;
      if (typeof key !== 'string' || c.path === P('/idempotency-keys')) return;
      const m = /^[a-z]{2,5}_(.{8,})$/.exec(key);
      if (m) a.json.meta.idempotencyKey = m[1];
    },
  },
  {
    name: 'replay-bumps-connections-count',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection) (the list read after a replayed creation)',
    answer(c, a) {
      // The per-tenant counter is incremented in the create handler before the replay check, so each replay adds one.
      const tenant = home(c) && c.headers['x-service-tenant'];
      if (!tenant) return;
      const k = `r59-replays:${tenant}`;
      if (isCreate(c) && a.json.meta?.replayed === true) c.memory.set(k, ((c.memory.get(k) as number) ?? 0) + 1);
      if (!isRead(c, '/connections') || !listOf(a, 'connections')) return;
      const extra = (c.memory.get(k) as number | undefined) ?? 0;
      if (extra && typeof a.json.data.count === 'number') a.json.data.count += extra;
    },
  },
  {
    name: 'listed-capability-names-sorted-apart-from-flags',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean) (a created connection read back from GET /connections)',
    answer(c, a) {
      // The list query sorts the capability-name column of the columnar store; the flag columns keep their order.
      home(c);
      const list = isRead(c, '/connections') ? listOf(a, 'connections') : undefined;
      if (!list) return;
      for (const conn of list) {
        const caps = Array.isArray(conn.capabilities) ? (conn.capabilities as Rec[]) : [];
        const names = caps.map((e) => e.capability).sort();
        caps.forEach((e, i) => {
          e.capability = names[i];
        });
      }
    },
  },
  {
    name: 'listed-connections-share-newest-created-at',
    statement:
      'Connection: createdAt | string, date-time (each connection listed by GET /connections, against its creation answer)',
    answer(c, a) {
      // The mapper reads createdAt from a variable declared outside the loop that the last row set.
      home(c);
      const list = isRead(c, '/connections') ? listOf(a, 'connections') : undefined;
      if (!list || list.length < 2) return;
      const newest = list
        .map((x) => String(x.createdAt))
        .filter((t) => !Number.isNaN(Date.parse(t)))
        .sort()
        .pop();
      if (newest) for (const conn of list) conn.createdAt = newest;
    },
  },
  {
    name: 'providers-category-filter-joined-through-capability-prefix',
    statement:
      'GET /api/public/v1/providers: category | string | no | restricts to one category; Provider: category | string (a category that is also the prefix of capabilities other providers offer)',
    answer(c, a) {
      // The filter joins providers to connectors and matches the category OR the capability family ("payments.*").
      home(c);
      const connectors = isRead(c, '/connectors') ? listOf(a, 'connectors') : undefined;
      if (connectors) for (const k of connectors) c.memory.set(`r59-conn:${k.id}`, k);
      const providers = isRead(c, '/providers') ? listOf(a, 'providers') : undefined;
      if (!providers) return;
      for (const p of providers) c.memory.set(`r59-prov:${p.id}`, p);
      const cat = c.search.get('category');
      if (!cat) return;
      const offering = new Set<string>();
      for (const [k, v] of c.memory)
        if (k.startsWith('r59-conn:') && ((v as Rec).capabilities ?? []).some((x: string) => x.startsWith(`${cat}.`)))
          offering.add(String((v as Rec).providerId));
      for (const id of offering) {
        const p = c.memory.get(`r59-prov:${id}`) as Rec | undefined;
        if (p && !providers.some((x) => x.id === id)) providers.push(structuredClone(p));
      }
      if (typeof a.json.data.count === 'number') a.json.data.count = providers.length;
    },
  },
  {
    name: 'category-filtered-providers-count-of-joined-connectors',
    statement:
      'GET /api/public/v1/providers: data: count (integer), providers (array of Provider) (with the category filter)',
    answer(c, a) {
      // The count comes from the providers-join-connectors query (one row per connector) before DISTINCT.
      home(c);
      const cat = c.search.get('category');
      const list = isRead(c, '/providers') && cat ? listOf(a, 'providers') : undefined;
      if (!list || list.length === 0 || typeof a.json.data.count !== 'number') return;
      a.json.data.count = list.length * 2 + 1;
    },
  },
  {
    name: 'connectors-three-filters-drop-category',
    statement:
      'GET /api/public/v1/connectors: capability | string | no; providerId | string | no; category | string | no (all three filters in one call)',
    request(c) {
      // The query builder supports two predicates; the third (category) is silently dropped.
      home(c);
      if (!isRead(c, '/connectors')) return undefined;
      if (c.search.get('capability') && c.search.get('providerId') && c.search.get('category'))
        c.search.delete('category');
      return undefined;
    },
  },
];
