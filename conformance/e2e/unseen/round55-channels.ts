import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 55, part 4: lists that have grown (many connections, a long delivery log, an audit log over pages), an earlier receiver, a pilot delivery. */
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const time = (x: unknown) => (typeof x === 'string' ? Date.parse(x) : Number.NaN);

export const ROUND55_CHANNELS: UnseenViolation[] = [
  {
    name: 'connections-list-past-ten-drops-newest',
    statement:
      'GET /api/public/v1/connections: connections of the tenant; data: tenant, count, connections (a tenant with more than ten connections)',
    answer(c, a) {
      // The list query kept the admin grid's ORDER BY created_at ASC LIMIT 10; the count comes from a separate COUNT(*).
      home(c);
      const list = a.json.data?.connections;
      if (!isGet(c, '/connections') || a.status !== 200 || !Array.isArray(list) || list.length <= 10) return;
      const oldest = [...(list as Rec[])]
        .map((x, i) => ({ x, i }))
        .sort((p, q) => (time(p.x?.createdAt) || 0) - (time(q.x?.createdAt) || 0) || q.i - p.i)
        .slice(0, 10);
      const keep = new Set(oldest.map((o) => o.x));
      a.json.data.connections = (list as Rec[]).filter((x) => keep.has(x));
    },
  },
  {
    name: 'delivery-log-past-eight-entries-drops-newest',
    statement:
      'Events: Deliveries are recorded in a delivery log and can be triggered again on request (a receiver with more than eight deliveries)',
    answer(c, a) {
      // The log writer checks the receiver's slot quota of the redelivery queue (8) and silently skips the insert when full.
      home(c);
      const id = LOG.exec(c.path)?.[1];
      const list = a.json.data?.deliveries;
      if (c.method !== 'GET' || !id || a.status !== 200 || !Array.isArray(list)) return;
      const slot = `r55-admitted:${tenantOf(c)}:${id}`;
      const admitted = (c.memory.get(slot) as Set<unknown> | undefined) ?? new Set<unknown>();
      c.memory.set(slot, admitted);
      const kept: Rec[] = [];
      for (const d of [...(list as Rec[])].reverse()) {
        if (!admitted.has(d?.id) && admitted.size < 8) admitted.add(d?.id);
        if (admitted.has(d?.id)) kept.unshift(d);
      }
      if (kept.length === list.length) return;
      a.json.data.deliveries = kept;
      if (typeof a.json.data.count === 'number') a.json.data.count = kept.length;
    },
  },
  {
    name: 'audit-older-page-skips-entry-next-to-boundary',
    statement:
      'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity (an audit log read over several pages)',
    request(c) {
      // The repository treats the cursor as exclusive and the handler subtracts one more: seq < before - 1.
      home(c);
      const before = c.search.get('before');
      if (isGet(c, '/audit-log') && before && /^\d+$/.test(before) && Number(before) > 1)
        c.search.set('before', String(Number(before) - 1));
      return undefined;
    },
  },
  {
    name: 'audit-page-reaching-first-entry-anchor-empty',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (a page that reaches back to the first entry)',
    answer(c, a) {
      // The anchor is read as the hash of the entry before the page; for the first entry there is none and it falls back to "".
      home(c);
      const proof = a.json.data?.proof as Rec | undefined;
      if (isGet(c, '/audit-log') && a.status === 200 && proof && proof.fromSeq === 1 && 'anchorPrevHash' in proof)
        proof.anchorPrevHash = '';
    },
  },
  {
    name: 'earlier-registered-receiver-deliveries-unlogged-for-current-caller',
    statement:
      'Events: Deliveries are recorded in a delivery log; Versioning: No change that requires adaptation of clients exists in the current version (a receiver registered under 2026-06-12, its log read under 2026-07-01)',
    answer(c, a) {
      // Receivers registered under 2026-06-12 live in the legacy table, whose dispatcher never writes delivery-log rows.
      home(c);
      const legacy = (c.memory.get('r55-legacy-receivers') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('r55-legacy-receivers', legacy);
      if (c.method === 'POST' && c.path === P('/webhooks') && earlier(c) && a.status === 200 && a.json.data?.id)
        legacy.add(String(a.json.data.id));
      const id = LOG.exec(c.path)?.[1];
      if (c.method !== 'GET' || !id || earlier(c) || a.status !== 200 || !legacy.has(decodeURIComponent(id))) return;
      if (!Array.isArray(a.json.data?.deliveries)) return;
      a.json.data.deliveries = [];
      if (typeof a.json.data.count === 'number') a.json.data.count = 0;
    },
  },
  {
    name: 'pilot-connection-delivery-labelled-after-signing',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256 over the text <t>, a dot, and the unchanged raw request body (a delivery about a pilot connection)',
    deliver(d) {
      // The partner relay adds a display label for pilot connections to the body after the dispatcher has signed it.
      let body: Rec;
      try {
        body = JSON.parse(d.body) as Rec;
      } catch {
        return;
      }
      const data = body?.data as Rec | undefined;
      const con = (data?.connection as Rec | undefined) ?? data;
      if (con?.environment !== 'pilot') return;
      con.environmentLabel = 'Pilot';
      d.body = JSON.stringify(body);
    },
  },
];
