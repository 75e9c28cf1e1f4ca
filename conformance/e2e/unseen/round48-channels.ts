import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/** Round 48, part 4: the stream over time, the delivery log and redelivery at the alternate address, the audit log by size. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
const sinceStart = (c: ProxyCall) => {
  if (!c.memory.has('r48-start')) c.memory.set('r48-start', Date.now());
  return Date.now() - (c.memory.get('r48-start') as number);
};
/** When the relay process sent its first delivery (the relay outlives one run's targets). */
const relay = { started: 0 };

export const ROUND48_CHANNELS: UnseenViolation[] = [
  {
    name: 'stream-numbering-restarts-after-worker-recycle',
    statement: 'Events: Every message carries a consecutive number (messages sent after the worker’s first seconds)',
    stream(c, lines) {
      // The stream worker is recycled 2 s after the first call and its new counter starts again at 1.
      home(c);
      if (!isStream(c) || sinceStart(c) <= 2_000) return lines;
      return lines.replace(/^id: (\d+)$/gm, (_m, n: string) => {
        if (!c.memory.has('r48-restart-base')) c.memory.set('r48-restart-base', Number(n));
        const base = c.memory.get('r48-restart-base') as number;
        return Number(n) >= base ? `id: ${Number(n) - base + 1}` : `id: ${n}`;
      });
    },
  },
  {
    name: 'alt-delivery-log-count-zero-with-entries',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log (the log read under {alt_base_url} counts none while listing some)',
    answer(c, a) {
      // The alternate region counts deliveries from its own outbox, which is empty; the rows come from the primary.
      home(c);
      const d = a.json.data as Rec | undefined;
      if (c.base === 'alt' && c.method === 'GET' && LOG.test(c.path) && Array.isArray(d?.deliveries)) d.count = 0;
    },
  },
  {
    name: 'alt-redelivery-answer-marked-replayed',
    statement:
      'Meta: replayed | true when the response comes from an earlier identical operation (a redelivery with a new key under {alt_base_url})',
    answer(c, a) {
      // The alternate gateway marks every answer of a keyed POST it forwarded to the primary as replayed.
      home(c);
      if (c.base === 'alt' && c.method === 'POST' && REDELIVER.test(c.path) && a.status === 200 && a.json.meta)
        a.json.meta.replayed = true;
    },
  },
  {
    name: 'audit-entries-after-twentieth-lack-hash',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (entries past the twentieth of a page)',
    answer(c, a) {
      // The hash column is fetched in a second query that is paged by 20 and never asks for page two.
      home(c);
      const entries = a.json.data?.entries;
      if (isAudit(c) && Array.isArray(entries)) for (const e of (entries as Rec[]).slice(20)) if (e) e.hash = '';
    },
  },
  {
    name: 'audit-limit-over-fifty-proof-omitted',
    statement:
      'GET /api/public/v1/audit-log: Query: limit; traceable changes of the tenant, including a proof of integrity (a limit above 50)',
    answer(c, a) {
      // Pages above 50 entries are streamed from the archive, which skips the proof builder.
      home(c);
      if (isAudit(c) && Number(c.search.get('limit')) > 50 && a.json.data?.proof) delete a.json.data.proof;
    },
  },
  {
    name: 'deliveries-after-relay-warm-up-gain-field-after-signing',
    statement:
      'Webhooks: The signature is an HMAC over <t>, a dot, and the unchanged raw request body (deliveries after the relay’s warm-up)',
    deliver(d) {
      // After its 2 s warm-up the relay enriches bodies with its hop count, after the service has signed them.
      const now = Date.now();
      if (relay.started === 0) relay.started = now;
      if (now - relay.started <= 2_000 || !d.body.startsWith('{')) return;
      d.body = `{"relayHops":1,${d.body.slice(1)}`;
    },
  },
];
