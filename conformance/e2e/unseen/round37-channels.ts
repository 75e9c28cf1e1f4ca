import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 37 of the unseen violations, part 4: channels — webhook registration replays unmarked, delivery
 * logs without rate-limit headers, redelivered attempts without a signature, resumed backlogs that lose
 * their last message, audit logs without production creations, an empty delivery log under the alternate
 * address, and deliveries signed before the tenant field is added to the body.
 */
type Rec = Record<string, any>;
const DELIVERIES = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const isDeliveryLog = (c: ProxyCall) => c.method === 'GET' && DELIVERIES.test(c.path);
const signatureHeader = (h: Record<string, string>) => Object.keys(h).find((k) => /signature/i.test(k));
/** Resumed stream calls whose first numbered part was already cut (one entry per HTTP request). */
const cutDone = new WeakSet<ProxyCall>();

export const ROUND37_CHANNELS: UnseenViolation[] = [
  {
    name: 'webhook-registration-replay-unmarked',
    statement:
      'Meta: replayed | boolean | no | true when the response comes from an earlier identical operation (a repeated webhook registration too)',
    answer(c, a) {
      // The webhook service serves its replays from its own cache, which drops the replay marker.
      home(c);
      if (c.method === 'POST' && c.path === P('/webhooks') && a.status === 200 && a.json.meta?.replayed === true)
        delete a.json.meta.replayed;
    },
  },
  {
    name: 'delivery-log-reads-lack-rate-limit-headers',
    statement:
      'Limits: Rate limits: Response headers: X-RateLimit-Limit, X-RateLimit-Remaining (on delivery-log reads too)',
    answer(c, a) {
      // The delivery log is served by a separate read service mounted behind the rate-limit middleware's exclusions.
      home(c);
      if (!isDeliveryLog(c)) return;
      delete a.headers['x-ratelimit-limit'];
      delete a.headers['x-ratelimit-remaining'];
    },
  },
  {
    name: 'redelivered-attempts-unsigned',
    statement:
      'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature> (a delivery triggered again is signed too)',
    deliver(d) {
      // The manual redelivery path posts the stored body through a plain HTTP client without the signer.
      const attempt = Number(d.headers['ncs-attempt'] ?? '1');
      const name = signatureHeader(d.headers);
      if (attempt > 1 && name) delete d.headers[name];
    },
  },
  {
    name: 'resume-backlog-last-message-dropped',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor',
    stream(c, lines) {
      // The backlog query reads "seq < newest" instead of "seq <= newest", so its last message is never sent.
      const resumed = c.search.has('cursor') || c.headers['last-event-id'] !== undefined;
      if (c.method !== 'GET' || c.path !== P('/stream') || !resumed || cutDone.has(c)) return lines;
      const blocks = lines.split(/(?<=\n\n)/);
      const last = blocks.map((b) => /^id: /m.test(b)).lastIndexOf(true);
      if (last < 0) return lines;
      cutDone.add(c);
      blocks.splice(last, 1);
      return blocks.join('');
    },
  },
  {
    name: 'audit-misses-production-creations',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (creations of production connections too)',
    answer(c, a) {
      // The audit view joins a table of sandbox-visible connections, so production creations fall out.
      home(c);
      const ids = (c.memory.get('r37-production') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('r37-production', ids);
      if (isCreate(c) && a.status === 200 && a.json.data?.environment === 'production') ids.add(String(a.json.data.id));
      if (!isAudit(c) || a.status !== 200 || !Array.isArray(a.json.data?.entries)) return;
      const kept = (a.json.data.entries as Rec[]).filter(
        (e) => !ids.has(String(e?.target).replace(/^connection:/, '')),
      );
      if (typeof a.json.data.count === 'number') a.json.data.count -= a.json.data.entries.length - kept.length;
      a.json.data.entries = kept;
    },
  },
  {
    name: 'alt-delivery-log-empty',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region reads the log from a replica that the delivery worker never writes to.
      home(c);
      if (c.base !== 'alt' || !isDeliveryLog(c) || a.status !== 200 || !Array.isArray(a.json.data?.deliveries)) return;
      a.json.data.deliveries = [];
      if (typeof a.json.data.count === 'number') a.json.data.count = 0;
    },
  },
  {
    name: 'delivery-signed-before-tenant-field-added',
    statement:
      'Webhooks: Signature rule: … an HMAC with SHA-256 … over the text <t>, a dot, and the unchanged raw request body',
    deliver(d, resign) {
      // The signer runs before an enrichment middleware adds the tenant field to the outgoing body.
      const name = signatureHeader(d.headers);
      let parsed: Rec;
      try {
        parsed = JSON.parse(d.body) as Rec;
      } catch {
        return;
      }
      if (!name || !parsed || typeof parsed !== 'object' || !('tenant' in parsed)) return;
      const { tenant: _tenant, ...signed } = parsed;
      d.headers[name] = resign(JSON.stringify(signed));
    },
  },
];
