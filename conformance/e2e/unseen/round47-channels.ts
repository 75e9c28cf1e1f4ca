import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/** Round 47, part 4: stream resumption across reconnects, deliveries versus registrations, the delivery log, redelivery. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
/** Stream calls that already carried their doubled message (one per connection). */
const doubled = new WeakSet<ProxyCall>();

export const ROUND47_CHANNELS: UnseenViolation[] = [
  {
    name: 'header-resume-after-cursor-resume-doubles-first-message',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a Last-Event-ID resume after an earlier cursor resume)',
    stream(c, lines) {
      // The resume cache filled by the cursor path is read by the header path too and merged with the backlog.
      home(c);
      if (!isStream(c)) return lines;
      if (c.search.has('cursor')) c.memory.set('r47-cursor-resumed', true);
      const header = c.headers['last-event-id'] !== undefined && !c.search.has('cursor');
      if (!header || !c.memory.has('r47-cursor-resumed') || doubled.has(c)) return lines;
      const block = /^id: \d+\n(?:[a-z]+: [^\n]*\n)*\n/m.exec(lines);
      if (!block) return lines;
      doubled.add(c);
      return lines.replace(block[0], `${block[0]}${block[0]}`);
    },
  },
  {
    name: 'delivered-event-type-colon-separated',
    statement:
      'Webhooks: A webhook receiver is registered giving a url and a list of event names, e.g. order.created (the delivered body names the event differently)',
    deliver(d, resign) {
      // The event-bus relay uses colon-separated topic names and signs what it forwards.
      let body: Rec;
      try {
        body = JSON.parse(d.body) as Rec;
      } catch {
        return;
      }
      if (typeof body.type !== 'string' || !body.type.includes('.')) return;
      body.type = body.type.replaceAll('.', ':');
      d.body = JSON.stringify(body);
      for (const [k, v] of Object.entries(d.headers)) {
        const t = /^t=(\d+),v1=/.exec(v);
        if (t) d.headers[k] = resign(d.body, Number(t[1]));
      }
    },
  },
  {
    name: 'delivery-log-event-type-namespaced',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log (the log names each delivery’s event other than the registration and the body)',
    answer(c, a) {
      // The log view reads the outbox topic, which carries a "webhook." namespace the deliveries do not.
      home(c);
      const list = a.json.data?.deliveries;
      if (c.method !== 'GET' || !LOG.test(c.path) || !Array.isArray(list)) return;
      for (const d of list as Rec[]) if (typeof d?.eventType === 'string') d.eventType = `webhook.${d.eventType}`;
    },
  },
  {
    name: 'redelivery-echoes-first-redelivery-key',
    statement:
      'Meta: idempotencyKey | string | the key used for the call (the second and later redeliveries, each with its own key)',
    answer(c, a) {
      // The redelivery handler memoises its answer meta per process and only refreshes the request id.
      home(c);
      if (c.method !== 'POST' || !REDELIVER.test(c.path) || a.status !== 200 || !a.json.meta) return;
      const first = c.memory.get('r47-first-redelivery-key') as string | undefined;
      const key = a.json.meta.idempotencyKey;
      if (first === undefined) {
        if (typeof key === 'string') c.memory.set('r47-first-redelivery-key', key);
      } else if (typeof key === 'string') a.json.meta.idempotencyKey = first;
    },
  },
];
