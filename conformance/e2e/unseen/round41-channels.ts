import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 41 of the unseen violations, part 4: channels — a second tenant's delivery-log counts one too
 * high, audit logs without pilot creations, delivery-log reads reporting the earlier version, a
 * second tenant's redelivery answers without ok, alternate delivery-log times without an offset, audit
 * reads without rate-limit headers, non-ASCII deliveries signed over a decomposed body, and redelivered
 * attempts stamped seven minutes ahead.
 */
type Rec = Record<string, any>;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const signatureName = (headers: Record<string, string>) => Object.keys(headers).find((k) => /signature/i.test(k));
/** Delivery bodies already sent once (deliveries carry no call, so no violation memory). */
const sentBodies = new Set<string>();

export const ROUND41_CHANNELS: UnseenViolation[] = [
  {
    name: 'second-tenant-delivery-log-count-plus-one',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request; list answers: count (integer) with the list (a second tenant’s log too)',
    answer(c, a) {
      // The second tenant's log counts its rows with a query that also counts the receiver's header row.
      const second = isSecond(c);
      const data = a.json.data as Rec | undefined;
      if (second && c.method === 'GET' && LOG.test(c.path) && typeof data?.count === 'number') data.count += 1;
    },
  },
  {
    name: 'audit-misses-pilot-creations',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (pilot creations too)',
    answer(c, a) {
      // Pilot connections are written by the pilot-onboarding service, which has no audit hook.
      home(c);
      const ids = (c.memory.get('r41-pilot-writes') ?? []) as string[];
      if (
        isCreate(c) &&
        (c.body as Rec | undefined)?.environment === 'pilot' &&
        a.status === 200 &&
        a.json.meta?.requestId
      )
        c.memory.set('r41-pilot-writes', [...ids, String(a.json.meta.requestId)]);
      const data = a.json.data as Rec | undefined;
      if (!isAudit(c) || !Array.isArray(data?.entries)) return;
      data.entries = (data.entries as Rec[]).filter((e) => !ids.includes(String(e?.requestId)));
      if (typeof data.count === 'number') data.count = data.entries.length;
    },
  },
  {
    name: 'delivery-log-reads-report-earlier-version',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date). Responses report it in meta.version (delivery-log reads too)',
    answer(c, a) {
      // The delivery-log view is a 2026-06-12 service that stamps its own build's version on every answer.
      home(c);
      const asked = c.headers['service-version'] ?? '2026-07-01';
      if (c.method === 'GET' && LOG.test(c.path) && asked === '2026-07-01' && a.json.meta?.version === '2026-07-01')
        a.json.meta.version = '2026-06-12';
    },
  },
  {
    name: 'second-tenant-redelivery-answer-lacks-ok',
    statement:
      'Success envelope (every JSON success response): ok | boolean | yes | always true (a second tenant’s triggered redelivery too)',
    answer(c, a) {
      // The second tenant's redelivery runs through the partner-hub queue, whose acknowledgement has no ok.
      const second = isSecond(c);
      if (second && c.method === 'POST' && REDELIVER.test(c.path) && a.status === 200) delete a.json.ok;
    },
  },
  {
    name: 'alt-delivery-log-meta-at-unzoned',
    statement: 'Meta: at | string, date-time | yes (a delivery-log read under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's log view formats times with the database's local-time formatter.
      home(c);
      const at = a.json.meta?.at;
      if (c.base === 'alt' && c.method === 'GET' && LOG.test(c.path) && typeof at === 'string')
        a.json.meta.at = at.replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, '');
    },
  },
  {
    name: 'audit-log-reads-lack-rate-limit-headers',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (audit-log reads too)',
    answer(c, a) {
      // The audit log is served by the compliance service, mounted beside the gateway's limiter.
      home(c);
      if (!isAudit(c)) return;
      delete a.headers['x-ratelimit-limit'];
      delete a.headers['x-ratelimit-remaining'];
    },
  },
  {
    name: 'non-ascii-delivery-signed-over-decomposed-body',
    statement:
      'Webhooks: Signature rule: HMAC with SHA-256 … over the text <t>, a dot, and the unchanged raw request body (a body with non-ASCII text too)',
    deliver(d, resign) {
      // The signer normalises text to NFD for its search index before hashing; the sent body stays NFC.
      const name = signatureName(d.headers);
      if (!name || !/[\u0080-\uffff]/.test(d.body) || d.body.normalize('NFD') === d.body) return;
      d.headers[name] = resign(d.body.normalize('NFD'));
    },
  },
  {
    name: 'redelivered-attempt-t-seven-minutes-ahead',
    statement:
      'Webhooks: the receiver rejects the delivery when the difference between t and the current time exceeds 300 seconds (a delivery triggered again too)',
    deliver(d, resign) {
      // Re-sent deliveries are scheduled with a seven-minute back-off and signed with the planned send time.
      const name = signatureName(d.headers);
      const again = sentBodies.has(d.body);
      sentBodies.add(d.body);
      if (name && again) d.headers[name] = resign(d.body, Math.floor(Date.now() / 1000) + 420);
    },
  },
];
