import { createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 42 of the unseen violations, part 4: channels — a second tenant's delivery-log reads with a
 * date-only meta.at, a second tenant's redeliveries answered 202, earlier-version resumptions by
 * Last-Event-ID one back, alternate resumptions by Last-Event-ID without their first message,
 * alternate receivers signed in uppercase hex, alternate redeliveries sharing one request id,
 * redelivery answers without rate-limit headers, and a second tenant's audit proof with a cut head hash.
 */
type Rec = Record<string, any>;
const EARLIER = '2026-06-12';
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
/** Signing keys issued to receivers registered at the alternate address (signing carries no call). */
const altSecrets = new Set<string>();

export const ROUND42_CHANNELS: UnseenViolation[] = [
  {
    name: 'second-tenant-delivery-log-meta-at-date-only',
    statement: 'Meta: at | string, date-time | yes (a second tenant’s delivery-log read too)',
    answer(c, a) {
      // The second tenant's delivery log is a nightly export whose stamp is the export date.
      const second = isSecond(c);
      const at = a.json.meta?.at;
      if (second && c.method === 'GET' && LOG.test(c.path) && typeof at === 'string') a.json.meta.at = at.slice(0, 10);
    },
  },
  {
    name: 'second-tenant-redelivery-answered-202',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope (a second tenant’s triggered redelivery too)',
    answer(c, a) {
      // The second tenant's redeliveries go through a queue whose front answers "accepted".
      const second = isSecond(c);
      if (second && c.method === 'POST' && REDELIVER.test(c.path) && a.status === 200) a.status = 202;
    },
  },
  {
    name: 'earlier-version-last-event-id-read-one-back',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once; the client resumes without gaps by sending Last-Event-ID (last number read) (with Service-Version 2026-06-12 too)',
    request(c) {
      // The 2026-06-12 stream reads Last-Event-ID as "the next number to send", so the last read one comes again.
      home(c);
      const last = Number(c.headers['last-event-id']);
      if (isStream(c) && c.headers['service-version'] === EARLIER && Number.isInteger(last) && last > 0)
        c.headers['last-event-id'] = String(last - 1);
      return undefined;
    },
  },
  {
    name: 'alt-last-event-id-resume-drops-first-message',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID (last number read) (under {alt_base_url} too)',
    stream(c, lines) {
      // The alternate region's resume path acknowledges the first message after Last-Event-ID before sending it.
      home(c);
      const last = Number(c.headers['last-event-id']);
      if (c.base !== 'alt' || !isStream(c) || !Number.isInteger(last) || c.search.has('cursor')) return lines;
      return lines
        .split(/(?<=\n\n)/)
        .filter((block) => !new RegExp(`^id: ${last + 1}\\n`).test(block))
        .join('');
    },
  },
  {
    name: 'alt-registered-receiver-signature-uppercase-hex',
    statement:
      'Webhooks: Signature rule: HMAC with SHA-256 … written as lowercase hex (a receiver registered under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's receivers are signed by its own signer, which formats the digest in uppercase.
      home(c);
      const secret = (a.json.data as Rec | undefined)?.signingSecret;
      if (c.base === 'alt' && c.method === 'POST' && c.path === P('/webhooks') && typeof secret === 'string')
        altSecrets.add(secret);
    },
    sign(body, secret, t) {
      const hex = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
      return `t=${t},v1=${altSecrets.has(secret) ? hex.toUpperCase() : hex}`;
    },
  },
  {
    name: 'alt-redelivery-request-id-reused',
    statement:
      'Meta: requestId | string | yes | identifier of this call (each redelivery triggered under {alt_base_url})',
    answer(c, a) {
      // The alternate region's redelivery answers carry the trace id of the job, created once per receiver.
      home(c);
      if (
        c.base !== 'alt' ||
        c.method !== 'POST' ||
        !REDELIVER.test(c.path) ||
        typeof a.json.meta?.requestId !== 'string'
      )
        return;
      const first = c.memory.get('r42-alt-redelivery-id');
      if (typeof first === 'string') a.json.meta.requestId = first;
      else c.memory.set('r42-alt-redelivery-id', a.json.meta.requestId);
    },
  },
  {
    name: 'redelivery-answers-lack-rate-limit-headers',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (a triggered redelivery too)',
    answer(c, a) {
      // The redelivery trigger is served by the delivery worker's own HTTP port, beside the gateway's limiter.
      home(c);
      if (c.method !== 'POST' || !REDELIVER.test(c.path)) return;
      delete a.headers['x-ratelimit-limit'];
      delete a.headers['x-ratelimit-remaining'];
    },
  },
  {
    name: 'second-tenant-audit-proof-head-hash-cut',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (a second tenant’s log too)',
    answer(c, a) {
      // The second tenant's audit view stores the head hash in a 32-character column.
      const second = isSecond(c);
      const proof = a.json.data?.proof as Rec | undefined;
      if (!second || c.method !== 'GET' || c.path !== P('/audit-log') || !proof) return;
      if (typeof proof.headHash === 'string') proof.headHash = proof.headHash.slice(0, 32);
    },
  },
];
