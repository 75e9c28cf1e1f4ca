import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P, refuse } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 46, part 4: stream, signing key, delivery log and redelivery. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isResume = (c: ProxyCall) => c.headers['last-event-id'] !== undefined || c.search.has('cursor');
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
const isLog = (c: ProxyCall) => c.method === 'GET' && LOG.test(c.path);

export const ROUND46_CHANNELS: UnseenViolation[] = [
  {
    name: 'alt-resumed-events-lack-data-line',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a stream resumed under {alt_base_url})',
    stream(c, lines) {
      // The alternate region's backlog replayer writes id and event but its payload writer is behind a flag left off.
      home(c);
      if (!isStream(c) || c.base !== 'alt' || !isResume(c)) return lines;
      return lines.replace(/^data:.*\n/gm, '');
    },
  },
  {
    name: 'alt-stream-opens-with-unnumbered-ready-event',
    statement:
      'Events: Every message carries a consecutive number (the first message of a stream under {alt_base_url})',
    stream(c, lines) {
      // The alternate region's load balancer injects a readiness message before the service's own ones.
      home(c);
      if (!isStream(c) || c.base !== 'alt') return lines;
      return lines.replace(/^retry: (\d+)$/m, 'retry: $1\n\nevent: ready\ndata: {"ready":true}');
    },
  },
  {
    name: 'stream-numbering-skips-ten',
    statement: 'Events: Every message carries a consecutive number (the tenth and later messages)',
    stream(c, lines) {
      // The sequence is read from a counter that the hourly compaction job bumps once, at ten rows.
      home(c);
      if (!isStream(c)) return lines;
      return lines.replace(/^id: (\d+)$/gm, (m, id: string) => (Number(id) >= 10 ? `id: ${Number(id) + 1}` : m));
    },
  },
  {
    name: 'alt-issued-signing-key-newline-terminated',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key (the key issued under {alt_base_url})',
    answer(c, a) {
      // The alternate region reads the issued key from a file written by echo, newline included; signing uses the stored key.
      home(c);
      const key = a.json.data?.signingSecret;
      if (c.base === 'alt' && c.method === 'POST' && c.path === P('/webhooks') && typeof key === 'string')
        a.json.data.signingSecret = `${key}\n`;
    },
  },
  {
    name: 'delivery-log-empty-on-second-read',
    statement: 'Webhooks: Deliveries are recorded in a delivery log (the second and later reads of one receiver’s log)',
    answer(c, a) {
      // The log view pops the queue it renders instead of peeking, so only the first read sees the records.
      home(c);
      const d = a.json.data as Rec | undefined;
      if (!isLog(c) || !Array.isArray(d?.deliveries)) return;
      const seen = c.memory.get(`r46-log-${c.path}`) === true;
      c.memory.set(`r46-log-${c.path}`, true);
      if (!seen) return;
      d.deliveries = [];
      if (typeof d.count === 'number') d.count = 0;
    },
  },
  {
    name: 'second-redelivery-of-delivery-conflicts',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (the same delivery triggered a second time, with a new key)',
    answer(c, a) {
      // The redelivery table has a unique index on the delivery id, so a second trigger fails as a conflict.
      home(c);
      const key = c.headers['idempotency-key'] ?? '';
      if (c.method !== 'POST' || !REDELIVER.test(c.path) || a.status !== 200) return;
      const first = c.memory.get(`r46-redeliver-${c.path}`) as string | undefined;
      if (first === undefined) c.memory.set(`r46-redeliver-${c.path}`, key);
      else if (first !== key) refuse(a, 409, 'idempotency_conflict', 'This delivery was already triggered again.');
    },
  },
  {
    name: 'second-tenant-delivery-log-lags-newest',
    statement: 'Webhooks: Deliveries are recorded in a delivery log (a second tenant’s receiver, its newest delivery)',
    answer(c, a) {
      // Partner tenants read the log from a replica that trails the outbox by one row.
      const second = isSecond(c);
      const d = a.json.data as Rec | undefined;
      if (!second || !isLog(c) || !Array.isArray(d?.deliveries) || d.deliveries.length === 0) return;
      d.deliveries = (d.deliveries as Rec[]).slice(1);
      if (typeof d.count === 'number') d.count -= 1;
    },
  },
];
