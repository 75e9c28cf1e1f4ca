import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 38 of the unseen violations, part 4: channels — redelivered attempts stamped in milliseconds,
 * Last-Event-ID ignored when no cursor is sent, older audit pages whose proof ends at the chain head, a
 * second tenant's audit actors rewritten after hashing, alternate redeliveries acknowledged but never
 * sent, a second tenant's signing key masked at creation, and webhook registrations reporting more calls
 * left than the limit.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const REDELIVER = /^(\/api\/public\/v1\/webhooks\/[^/]+\/deliveries)\/([^/]+)\/redeliver$/;
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const isRegistration = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
const signatureHeader = (h: Record<string, string>) => Object.keys(h).find((k) => /signature/i.test(k));
/** Redeliveries the alternate address turned into log reads: the delivery id each one asked for. */
const swallowed = new WeakMap<ProxyCall, string>();

export const ROUND38_CHANNELS: UnseenViolation[] = [
  {
    name: 'redelivered-signature-t-in-milliseconds',
    statement:
      'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature> (later attempts too)',
    deliver(d, resign) {
      // The retry worker is a JavaScript service that stamps Date.now() where the first sender used seconds.
      const attempt = Number(d.headers['ncs-attempt'] ?? '1');
      const name = signatureHeader(d.headers);
      if (attempt > 1 && name) d.headers[name] = resign(d.body, Date.now());
    },
  },
  {
    name: 'last-event-id-header-ignored',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor; Every message … arrives exactly once',
    request(c) {
      // The load balancer's SSE route forwards only an allow-list of headers, and Last-Event-ID is not on it.
      if (c.method === 'GET' && c.path === P('/stream') && !c.search.has('cursor')) delete c.headers['last-event-id'];
      return undefined;
    },
  },
  {
    name: 'audit-older-page-head-hash-is-chain-head',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (an older page’s proof verifies too)',
    answer(c, a) {
      // The proof builder reads the head hash from the chain-head cache instead of the page's newest entry.
      home(c);
      const proof = a.json.data?.proof as Rec | undefined;
      if (isAudit(c) && c.search.has('before') && typeof proof?.chainHead?.hash === 'string')
        proof.headHash = proof.chainHead.hash;
    },
  },
  {
    name: 'second-tenant-audit-actor-rewritten-after-hashing',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (a second tenant’s entries verify)',
    answer(c, a) {
      // The second tenant's audit view qualifies actors with the tenant after the entries were hashed.
      const second = isSecond(c);
      const entries = a.json.data?.entries;
      if (!second || !isAudit(c) || !Array.isArray(entries)) return;
      for (const e of entries as Rec[])
        if (typeof e?.actor === 'string') e.actor = `${e.actor}@${c.headers['x-service-tenant']}`;
    },
  },
  {
    name: 'alt-redelivery-acknowledged-not-sent',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (under {alt_base_url} too)',
    request(c) {
      // The alternate region enqueues redeliveries on a queue no worker consumes and echoes the stored record.
      home(c);
      const m = REDELIVER.exec(c.path);
      if (c.base !== 'alt' || c.method !== 'POST' || !m?.[1] || !m[2]) return undefined;
      swallowed.set(c, m[2]);
      c.method = 'GET';
      c.path = m[1];
      delete c.headers['content-type'];
      return undefined;
    },
    answer(c, a) {
      const id = swallowed.get(c);
      if (id === undefined || a.status !== 200) return;
      const entry = ((a.json.data?.deliveries ?? []) as Rec[]).find((d) => d?.id === id);
      if (entry) a.json.data = entry;
      else a.json.data = { id, status: 'queued' };
    },
  },
  {
    name: 'second-tenant-signing-key-masked',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once (a second tenant’s key too)',
    answer(c, a) {
      // The second tenant's security profile turns on secret masking for every answer, the creation included.
      const second = isSecond(c);
      const data = a.json.data as Rec | undefined;
      const key = data?.signingSecret;
      if (second && isRegistration(c) && a.status === 200 && data && typeof key === 'string' && key.length > 10)
        data.signingSecret = `${key.slice(0, 6)}${'*'.repeat(key.length - 10)}${key.slice(-4)}`;
    },
  },
  {
    name: 'webhook-registration-remaining-above-limit',
    statement:
      'Limits: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (a webhook registration leaves no more than the limit)',
    answer(c, a) {
      // The webhook service adds its own budget to the remaining count it got from the shared limiter.
      home(c);
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (isRegistration(c) && Number.isFinite(limit) && a.headers['x-ratelimit-remaining'] !== undefined)
        a.headers['x-ratelimit-remaining'] = String(limit + 50);
    },
  },
];
