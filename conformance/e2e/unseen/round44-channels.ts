import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P, refuse } from './proxy-helpers.ts';
import { altSecond, earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 44, part 4: stream, deliveries, delivery log and audit log. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const parse = (s: string) => {
  try {
    const v = JSON.parse(s) as unknown;
    return v && typeof v === 'object' ? (v as Rec) : undefined;
  } catch {
    return undefined;
  }
};
/** Event ids already delivered once (deliveries carry no call, so no violation memory). */
const deliveredIds = new Set<string>();

export const ROUND44_CHANNELS: UnseenViolation[] = [
  {
    name: 'earlier-version-stream-numbers-doubled',
    statement: 'Events: Every message carries a consecutive number (the stream under Service-Version 2026-06-12)',
    stream(c, lines) {
      // The 2026-06-12 stream numbers both halves of a split message and only sends the even half's id.
      home(c);
      if (!isStream(c) || !earlier(c)) return lines;
      return lines.replace(/^id: (\d+)$/gm, (_m, n: string) => `id: ${Number(n) * 2}`);
    },
  },
  {
    name: 'resumed-stream-ids-prefixed',
    statement:
      'Events: Every message carries a consecutive number; the client resumes by sending Last-Event-ID (last number read) (the messages after a resume)',
    stream(c, lines) {
      // The resume path is served by the archive reader, which writes its storage keys as ids.
      home(c);
      if (!isStream(c) || c.headers['last-event-id'] === undefined) return lines;
      return lines.replace(/^id: (\d+)$/gm, 'id: evt-$1');
    },
  },
  {
    name: 'delivered-times-restamped-by-relay',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log (the delivered body is the recorded one, times included)',
    deliver(d, resign) {
      // The outbound relay restamps date-time fields with its own (one hour ahead) clock, then re-signs.
      const b = parse(d.body);
      if (!b) return;
      for (const [k, v] of Object.entries(b))
        if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && !Number.isNaN(Date.parse(v)))
          b[k] = new Date(Date.parse(v) + 3600_000).toISOString();
      const name = Object.keys(d.headers).find((k) => /^t=\d+,v1=[0-9a-f]+$/.test(d.headers[k] ?? ''));
      d.body = JSON.stringify(b);
      if (name) d.headers[name] = resign(d.body);
    },
  },
  {
    name: 'repeated-delivery-body-reserialized-after-signing',
    statement:
      'Webhooks: The signature is an HMAC over <t>, a dot, and the unchanged raw request body (a delivery triggered again)',
    deliver(d) {
      // The retry queue stores the parsed body and serializes it again, indented, after the signature was made.
      const b = parse(d.body);
      const id = typeof b?.id === 'string' ? b.id : undefined;
      if (!b || !id) return;
      if (deliveredIds.has(id)) d.body = JSON.stringify(b, null, 2);
      deliveredIds.add(id);
    },
  },
  {
    name: 'second-tenant-audit-proof-omitted',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (a second tenant’s log)',
    answer(c, a) {
      // Partner tenants' logs are read from a replica that has no hash chain table.
      const second = isSecond(c);
      const d = a.json.data as Rec | undefined;
      if (!second || c.method !== 'GET' || c.path !== P('/audit-log') || !d) return;
      for (const k of Object.keys(d)) if (/proof|integrity|chain/i.test(k)) delete d[k];
    },
  },
  {
    name: 'alt-second-tenant-audit-log-empty',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant (a second tenant that created connections, read under {alt_base_url})',
    answer(c, a) {
      // The alternate region's audit replica filters by the token's first tenant, so partners see nothing.
      const hit = altSecond(c);
      const d = a.json.data as Rec | undefined;
      if (!hit || c.method !== 'GET' || c.path !== P('/audit-log') || !d) return;
      for (const [k, v] of Object.entries(d)) if (Array.isArray(v)) d[k] = [];
      if (typeof d.count === 'number') d.count = 0;
    },
  },
  {
    name: 'earlier-version-audit-log-not-found',
    statement:
      'Endpoints: GET /api/public/v1/audit-log (no version note: the delivery log, not the audit log, is new in 2026-07-01) (under Service-Version 2026-06-12)',
    answer(c, a) {
      // The version router lists the audit log with the delivery log as "added in 2026-07-01".
      home(c);
      if (earlier(c) && c.method === 'GET' && c.path === P('/audit-log') && a.status === 200)
        refuse(a, 404, 'not_found', 'The entry does not exist.');
    },
  },
  {
    name: 'alt-second-tenant-delivery-log-forbidden',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be viewed (a second tenant’s own receiver, under {alt_base_url})',
    answer(c, a) {
      // The alternate region's delivery-log reader checks the receiver's owner against the token's first tenant.
      const hit = altSecond(c);
      if (hit && c.method === 'GET' && LOG.test(c.path) && a.status === 200)
        refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
];
