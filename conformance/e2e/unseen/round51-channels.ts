import { createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 51, part 4: stream numbers per reader, redelivery signing, transcoded bodies, the audit log's limit and cache, rate-limit headers. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const SIGNED = /^t=\d+,v1=/;
/** Delivery ids a sender has signed once (redeliveries come back with the same id). */
const sentOnce = new Set<string>();

export const ROUND51_CHANNELS: UnseenViolation[] = [
  {
    name: 'resumed-stream-renumbered-from-one',
    statement:
      'Events: Every message carries a consecutive number; the client resumes by sending the query parameter cursor (last number read) (a resumption by cursor)',
    stream(c, lines) {
      // The resume path builds a fresh iterator over the backlog and numbers messages by its own index.
      home(c);
      const cursor = Number(c.search.get('cursor'));
      if (!isStream(c) || !Number.isInteger(cursor) || cursor <= 0) return lines;
      return lines.replace(/^id: (\d+)$/gm, (_m, id: string) => `id: ${Math.max(1, Number(id) - cursor)}`);
    },
  },
  {
    name: 'second-tenant-stream-numbers-from-global-sequence',
    statement:
      'Events: Every message carries a consecutive number (the second tenant’s own stream, read with its token)',
    request(c) {
      // Numbers come from a sequence shared by both tenants' feeds; resumption maps them back, so only the gaps show.
      const second = isSecond(c);
      if (!second || !isStream(c)) return undefined;
      const cursor = Number(c.search.get('cursor'));
      const last = Number(c.headers['last-event-id']);
      if (c.search.has('cursor') && cursor > 0) c.search.set('cursor', String(Math.floor(cursor / 2)));
      if (c.headers['last-event-id'] && last > 0) c.headers['last-event-id'] = String(Math.floor(last / 2));
      return undefined;
    },
    stream(c, lines) {
      if (!isSecond(c) || !isStream(c) || !c.headers.authorization) return lines;
      return lines.replace(/^id: (\d+)$/gm, (_m, id: string) => `id: ${Number(id) * 2}`);
    },
  },
  {
    name: 'redelivery-signed-with-empty-key',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key; deliveries can be triggered again on request (a re-triggered delivery)',
    deliver(d) {
      // The redelivery worker loads the receiver through a projection without the secret column and signs with ''.
      const id = Object.entries(d.headers).find(([k]) => k.toLowerCase().endsWith('-delivery'))?.[1] ?? '';
      const again = sentOnce.has(id);
      sentOnce.add(id);
      if (!again) return;
      for (const [k, v] of Object.entries(d.headers))
        if (SIGNED.test(v)) {
          const t = Number(/^t=(\d+)/.exec(v)?.[1]);
          d.headers[k] = `t=${t},v1=${createHmac('sha256', '').update(`${t}.${d.body}`).digest('hex')}`;
        }
    },
  },
  {
    name: 'delivery-body-ascii-escaped-after-signing',
    statement:
      'Webhooks: The signature is an HMAC ... over <t>, a dot, and the unchanged raw request body (a delivery whose payload has non-ASCII text)',
    deliver(d) {
      // The HTTP client re-encodes the signed body with an ASCII-only JSON encoder (\\u escapes) before posting it.
      if (!/[\u0080-\uffff]/.test(d.body)) return;
      d.body = d.body.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    },
  },
  {
    name: 'audit-log-limit-of-one-ignored',
    statement: 'GET /api/public/v1/audit-log: Query: limit (number of entries) (limit=1)',
    request(c) {
      // The limit parser uses `limit > 1 ? limit : undefined` to skip "meaningless" values, dropping 1 with them.
      home(c);
      if (c.method === 'GET' && c.path === P('/audit-log') && c.search.get('limit') === '1') c.search.delete('limit');
      return undefined;
    },
  },
  {
    name: 'alt-audit-log-cache-ignores-tenant-header',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant (the same query for another tenant under {alt_base_url})',
    answer(c, a) {
      // The alternate address's response cache keys on path and query only, so one tenant gets another's cached log.
      home(c);
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/audit-log') || a.status !== 200) return;
      const key = `r51-audit:${c.search.toString()}`;
      const tenant = c.headers['x-service-tenant'];
      const cached = c.memory.get(key) as { tenant?: string; data: Rec } | undefined;
      if (cached && cached.tenant !== tenant) a.json.data = structuredClone(cached.data);
      else c.memory.set(key, { tenant, data: structuredClone(a.json.data) });
    },
  },
  {
    name: 'second-tenant-rate-limit-header-per-second-value',
    statement:
      'Limits: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (calls for the second tenant)',
    answer(c, a) {
      // The second tenant's quota is configured per minute, and the header writer divides it by 60 to show a per-second rate.
      const second = isSecond(c);
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (second && Number.isFinite(limit) && limit > 0)
        a.headers['x-ratelimit-limit'] = String(Math.max(1, Math.round(limit / 60)));
    },
  },
  {
    name: 'delivery-log-shows-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response (the delivery log of the receiver)',
    answer(c, a) {
      // Each log entry embeds a snapshot of the receiver's configuration, secret included.
      home(c);
      if (c.method === 'POST' && c.path === P('/webhooks') && a.status === 200) {
        const d = a.json.data as Rec | undefined;
        const secret = Object.entries(d ?? {}).find(([k, v]) => /secret|key/i.test(k) && typeof v === 'string')?.[1];
        if (d?.id && secret) c.memory.set(`r51-secret:${d.id}`, secret);
        return;
      }
      const m = LOG.exec(c.path);
      const secret = m ? c.memory.get(`r51-secret:${m[1]}`) : undefined;
      if (c.method !== 'GET' || !secret || !Array.isArray(a.json.data?.deliveries)) return;
      for (const d of a.json.data.deliveries as Rec[]) if (d) d.receiver = { id: m?.[1], signingSecret: secret };
    },
  },
];
