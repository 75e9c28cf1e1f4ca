import { randomBytes } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 40 of the unseen violations, part 4: channels — replayed webhook registrations issuing a new
 * signing key, audit logs lacking changes made with the earlier Service-Version, redelivery answers
 * without meta.version, a second stream opened without a position numbered from one, a second tenant's
 * audit log lacking its receivers, a second tenant's deliveries signed seven minutes old, and repeated
 * delivery-log reads marked as replays.
 */
type Rec = Record<string, any>;
const EARLIER = '2026-06-12';
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const isRegistration = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
/** Keeps the audit entries a deployment "lost"; count follows the list. */
const dropEntries = (data: Rec, lost: (e: Rec) => boolean) => {
  data.entries = (data.entries as Rec[]).filter((e) => !lost(e));
  if (typeof data.count === 'number') data.count = data.entries.length;
};
/** The run's own tenant as the API calls named it; deliveries carry no call, so it is kept here. */
let homeTenant: string | undefined;
/** Stream numbering of each renumbered stream call. */
const renumbered = new WeakMap<ProxyCall, number>();

export const ROUND40_CHANNELS: UnseenViolation[] = [
  {
    name: 'webhook-registration-replay-signing-key-reissued',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once; the same key with the same content returns the same response again',
    answer(c, a) {
      // The replay path re-runs the serializer, which mints a fresh key whenever it sees the secret field.
      home(c);
      if (isRegistration(c) && a.status === 200 && a.json.meta?.replayed === true && a.json.data)
        a.json.data.signingSecret = `whsec_${randomBytes(32).toString('base64url')}`;
    },
  },
  {
    name: 'audit-misses-earlier-version-changes',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant (changes made with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The 2026-06-12 handlers are a frozen copy that predates the audit hook, so their writes leave no entry.
      home(c);
      const ids = (c.memory.get('r40-earlier-writes') ?? []) as string[];
      if (c.method === 'POST' && c.headers['service-version'] === EARLIER && a.status === 200 && a.json.meta?.requestId)
        c.memory.set('r40-earlier-writes', [...ids, String(a.json.meta.requestId)]);
      if (isAudit(c) && Array.isArray(a.json.data?.entries))
        dropEntries(a.json.data, (e) => ids.includes(String(e?.requestId)));
    },
  },
  {
    name: 'redelivery-answer-lacks-meta-version',
    statement: 'Meta: version | string | yes | interface version (the answer of a triggered redelivery too)',
    answer(c, a) {
      // The redelivery endpoint is a queue producer with its own minimal envelope writer.
      home(c);
      if (c.method === 'POST' && REDELIVER.test(c.path) && a.status === 200 && a.json.meta) delete a.json.meta.version;
    },
  },
  {
    name: 'second-stream-numbered-from-one',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a second stream opened without a position too)',
    request(c) {
      // Each stream connection gets its own counter once the first one holds the shared sequence lock.
      home(c);
      if (c.method !== 'GET' || c.path !== P('/stream')) return undefined;
      const opened = Number(c.memory.get('r40-streams') ?? 0) + 1;
      c.memory.set('r40-streams', opened);
      if (opened > 1 && !c.search.has('cursor') && !c.headers['last-event-id']) renumbered.set(c, 0);
      return undefined;
    },
    stream(c, lines) {
      if (!renumbered.has(c)) return lines;
      return lines.replace(/^id:\s*\d+\s*$/gm, () => {
        const n = (renumbered.get(c) ?? 0) + 1;
        renumbered.set(c, n);
        return `id: ${n}`;
      });
    },
  },
  {
    name: 'second-tenant-audit-omits-webhook-registrations',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant (a second tenant’s webhook registrations too)',
    answer(c, a) {
      // The second tenant's receivers are stored by the partner-hub service, which does not write audit rows.
      const second = isSecond(c);
      if (second && isAudit(c) && Array.isArray(a.json.data?.entries))
        dropEntries(a.json.data, (e) => /^webhook\./.test(String(e?.action)));
    },
  },
  {
    name: 'second-tenant-delivery-t-seven-minutes-old',
    statement:
      'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=… the receiver rejects the delivery when the difference between t and the current time exceeds 300 seconds (a second tenant’s deliveries too)',
    answer(c) {
      homeTenant = home(c) ?? homeTenant;
    },
    deliver(d, resign) {
      // The second tenant's events wait in a batch queue and are signed with the time they were queued.
      let tenant: unknown;
      try {
        tenant = (JSON.parse(d.body) as Rec)?.tenant;
      } catch {
        return;
      }
      const name = Object.keys(d.headers).find((k) => /signature/i.test(k));
      if (!name || typeof tenant !== 'string' || !homeTenant || tenant === homeTenant) return;
      d.headers[name] = resign(d.body, Math.floor(Date.now() / 1000) - 420);
    },
  },
  {
    name: 'repeated-delivery-log-read-marked-replayed',
    statement:
      'Meta: replayed | boolean | true when the response comes from an earlier identical operation (a read of the delivery log is none)',
    answer(c, a) {
      // The delivery-log view is cached by URL, and the cache layer flags every cache hit as a replay.
      home(c);
      if (c.method !== 'GET' || !LOG.test(c.path) || a.status !== 200 || !a.json.meta) return;
      const seen = c.memory.get(`r40-log:${c.path}`);
      c.memory.set(`r40-log:${c.path}`, true);
      if (seen) a.json.meta.replayed = true;
    },
  },
];
