import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 9 of the unseen violations, part 2: fields wrong for one kind of record only — pilot
 * connections in the count, development connections' entries, critical catalog entries, the key
 * result for long operations, replays at the alternate address, the other tenant's createdAt.
 */
type Rec = Record<string, any>;
const isRead = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);

export const ROUND9_FIELDS: UnseenViolation[] = [
  {
    name: 'connections-count-excludes-pilot',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection)',
    answer(c, a) {
      // The count query filters on the environments that existed before pilot was added.
      const d = a.json.data;
      if (!isRead(c, '/connections') || a.status !== 200 || !Array.isArray(d?.connections)) return;
      d.count = (d.connections as Rec[]).filter((x) => x.environment !== 'pilot').length;
    },
  },
  {
    name: 'development-entries-lack-critical',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    answer(c, a) {
      const d = a.json.data;
      const strip = (x: Rec) => {
        if (x?.environment === 'development' && Array.isArray(x.capabilities))
          for (const e of x.capabilities as Rec[]) delete e.critical;
      };
      if (isRead(c, '/connections') && Array.isArray(d?.connections)) (d.connections as Rec[]).forEach(strip);
      if (isCreate(c) && a.status === 200 && d) strip(d);
    },
  },
  {
    name: 'catalog-critical-lacks-idempotency-flag',
    statement:
      'Capability: idempotencyRequired | boolean | whether calls using this capability need an idempotency key',
    answer(c, a) {
      const d = a.json.data;
      if (!isRead(c, '/capabilities') || !Array.isArray(d?.capabilities)) return;
      for (const x of d.capabilities as Rec[]) if (x.critical === true) delete x.idempotencyRequired;
    },
  },
  {
    name: 'key-expires-at-local-time',
    statement: 'Idempotency key result: expiresAt | string, date-time',
    answer(c, a) {
      // Formatted with the server's local-time formatter: no offset.
      const d = a.json.data;
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || typeof d?.expiresAt !== 'string') return;
      d.expiresAt = d.expiresAt.replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, '').replace('T', ' ');
    },
  },
  {
    name: 'long-operation-key-lacks-expiry',
    statement:
      'POST /api/public/v1/idempotency-keys: data: idempotencyKey (string), operation (string), expiresAt (date-time)',
    answer(c, a) {
      const d = a.json.data;
      const op = (c.body as Rec | undefined)?.operation;
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || !d || typeof op !== 'string') return;
      // Operations over 40 characters miss the expiry cache's key length and get no expiry.
      if (op.length > 40) delete d.expiresAt;
    },
  },
  {
    name: 'alt-replay-lacks-key-echo',
    statement:
      'POST /api/public/v1/connections: ... returns the same response again, with meta.replayed true and meta.idempotencyKey set (also under {alt_base_url})',
    answer(c, a) {
      if (isCreate(c) && c.base === 'alt' && a.json.meta?.replayed === true) delete a.json.meta.idempotencyKey;
    },
  },
  {
    name: 'other-tenant-created-at-date-only',
    statement: 'Connection: createdAt | string, date-time',
    answer(c, a) {
      // The second tenant's shard stores a DATE column.
      const tenant = c.headers['x-service-tenant'];
      const own = home(c);
      if (!tenant || !own || tenant === own) return;
      const d = a.json.data;
      const cut = (x: Rec) => {
        if (typeof x?.createdAt === 'string') x.createdAt = x.createdAt.slice(0, 10);
      };
      if (isCreate(c) && a.status === 200 && d) cut(d);
      if (isRead(c, '/connections') && Array.isArray(d?.connections)) (d.connections as Rec[]).forEach(cut);
    },
  },
  {
    name: 'earlier-version-self-description-lacks-surface',
    statement:
      'GET /api/public/v1: data: service (string), surface (string), version (string), authentication, idempotency, routes',
    answer(c, a) {
      if (c.method !== 'GET' || c.path !== P('') || c.headers['service-version'] !== '2026-06-12') return;
      if (a.json.data) delete a.json.data.surface;
    },
  },
];
