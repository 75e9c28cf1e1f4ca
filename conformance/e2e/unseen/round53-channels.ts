import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { CURRENT, type Rec } from './round44-common.ts';

/** Round 53, part 4: the stream against writes on both addresses and replays, the delivery log against deliveries, limits over calls. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/redeliver$/;
const recent = (at: unknown, ms = 3000) => typeof at === 'number' && Date.now() - at < ms;
const repeated = new WeakSet<ProxyCall>();
const dropLog = (a: ProxyAnswer, keep: (d: Rec) => boolean) => {
  const list = a.json.data?.deliveries;
  if (!Array.isArray(list)) return;
  const kept = (list as Rec[]).filter((d) => keep(d ?? {}));
  if (typeof a.json.data.count === 'number') a.json.data.count -= list.length - kept.length;
  a.json.data.deliveries = kept;
};

export const ROUND53_CHANNELS: UnseenViolation[] = [
  {
    name: 'stream-after-alt-creation-skips-a-number',
    statement:
      'Events: Every message carries a consecutive number (messages after a creation sent to the second address)',
    answer(c, a) {
      home(c);
      if (isCreate(c) && c.base === 'alt' && a.status === 200) c.memory.set('r53-alt-wrote', true);
    },
    stream(c, lines) {
      // The second address publishes through its own broker, which reserves a sequence number it never uses.
      home(c);
      if (!isStream(c) || !c.memory.get('r53-alt-wrote')) return lines;
      return lines.replace(/^id: (\d+)$/gm, (_m, n: string) => `id: ${Number(n) >= 2 ? Number(n) + 1 : n}`);
    },
  },
  {
    name: 'resume-right-after-alt-write-repeats-last-read',
    statement:
      'Events: Every message ... arrives exactly once; the client resumes ... by sending Last-Event-ID or cursor (last number read) (a resume within three seconds of a creation on the second address)',
    answer(c, a) {
      home(c);
      if (isCreate(c) && c.base === 'alt' && a.status === 200) c.memory.set('r53-alt-at', Date.now());
    },
    request(c) {
      // To cover replication lag from the second address, the resume handler steps back one message "to be safe".
      home(c);
      if (!isStream(c) || !recent(c.memory.get('r53-alt-at'))) return undefined;
      const cur = c.search.get('cursor');
      if (cur && /^\d+$/.test(cur) && Number(cur) > 0) c.search.set('cursor', String(Number(cur) - 1));
      const last = c.headers['last-event-id'];
      if (last && /^\d+$/.test(last) && Number(last) > 0) c.headers['last-event-id'] = String(Number(last) - 1);
      return undefined;
    },
  },
  {
    name: 'stream-after-replay-repeats-newest-message',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a stream opened within three seconds of a replayed creation)',
    answer(c, a) {
      home(c);
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed === true) c.memory.set('r53-replay-at', Date.now());
    },
    stream(c, lines) {
      // A replay re-publishes the stored outbox row, and the stream relays it under its original number once more.
      home(c);
      if (!isStream(c) || repeated.has(c) || !recent(c.memory.get('r53-replay-at'))) return lines;
      const last = lines
        .split(/\n\n/)
        .filter((b) => /^id: \d+$/m.test(b))
        .at(-1);
      if (!last) return lines;
      repeated.add(c);
      return `${lines}${lines.endsWith('\n\n') ? '' : '\n\n'}${last}\n\n`;
    },
  },
  {
    name: 'delivery-log-omits-deliveries-to-query-string-urls',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log (deliveries to a receiver whose url carries a query string)',
    answer(c, a) {
      // The log writer builds its row key from the url path and drops the row when the key parser meets a "?".
      home(c);
      if (c.method === 'GET' && LOG.test(c.path) && a.status === 200)
        dropLog(a, (d) => !(typeof d.url === 'string' && d.url.includes('?')));
    },
  },
  {
    name: 'second-receiver-delivery-log-empty',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (the log of a tenant’s second receiver)',
    answer(c, a) {
      // Deliveries are logged under the tenant's primary receiver id, so every later receiver's log reads empty.
      home(c);
      const tenant = c.headers['x-service-tenant'] ?? '';
      if (c.method === 'POST' && c.path === P('/webhooks') && a.status === 200 && a.json.data?.id) {
        const key = `r53-first-hook:${tenant}`;
        if (!c.memory.has(key)) c.memory.set(key, a.json.data.id);
      }
      const m = LOG.exec(c.path);
      const first = c.memory.get(`r53-first-hook:${tenant}`);
      if (c.method === 'GET' && m && a.status === 200 && first && m[1] !== first) dropLog(a, () => false);
    },
  },
  {
    name: 'redelivery-of-older-delivery-not-found',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a delivery older than the receiver’s newest)',
    answer(c, a) {
      home(c);
      const m = LOG.exec(c.path);
      const list = a.json.data?.deliveries;
      if (c.method === 'GET' && m && a.status === 200 && Array.isArray(list) && list[0]?.id)
        c.memory.set(`r53-newest:${m[1]}`, list[0].id);
    },
    request(c) {
      // The redelivery lookup reads the receiver's "latest delivery" index instead of the delivery table.
      home(c);
      const m = REDELIVER.exec(c.path);
      const newest = m ? c.memory.get(`r53-newest:${m[1]}`) : undefined;
      if (c.method !== 'POST' || !m || typeof newest !== 'string' || m[2] === newest) return undefined;
      return {
        status: 404,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        json: {
          ok: false,
          error: { code: 'not_found', message: 'The entry does not exist.' },
          meta: { requestId: `req_r53_${Date.now().toString(36)}`, version: CURRENT, at: new Date().toISOString() },
        },
      };
    },
  },
  {
    name: 'refused-calls-refunded-twice-to-remaining',
    statement:
      'Limits: X-RateLimit-Remaining (calls left in the window) (the calls after a refused call of the same tenant)',
    answer(c, a) {
      // Refused calls are refunded by both the gateway and the application, so each one adds two calls back.
      home(c);
      const tenant = c.headers['x-service-tenant'];
      if (!tenant || !a.headers['x-ratelimit-remaining']) return;
      const key = `r53-refund:${tenant}`;
      const refund = (c.memory.get(key) as number | undefined) ?? 0;
      if (a.status >= 400 && a.status !== 429) c.memory.set(key, refund + 2);
      else if (refund) a.headers['x-ratelimit-remaining'] = String(Number(a.headers['x-ratelimit-remaining']) + refund);
    },
  },
  {
    name: 'limit-header-grows-after-each-write',
    statement:
      'Limits: X-RateLimit-Limit (limit for the current window) (consecutive calls of one window around a creation)',
    answer(c, a) {
      // Each write grants a "burst credit" that the header adds to the configured limit instead of tracking it apart.
      home(c);
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed !== true)
        c.memory.set('r53-writes', ((c.memory.get('r53-writes') as number | undefined) ?? 0) + 1);
      const writes = (c.memory.get('r53-writes') as number | undefined) ?? 0;
      const limit = a.headers['x-ratelimit-limit'];
      if (writes && limit && /^\d+$/.test(limit)) a.headers['x-ratelimit-limit'] = String(Number(limit) + writes);
    },
  },
];
