import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 33 of the unseen violations, part 4: channels — a delivery log that keeps only the newest
 * attempt, redeliveries of unknown deliveries acknowledged, signatures over an ASCII-escaped copy of
 * bodies with non-ASCII text, a sibling tenant re-triggering the first tenant's deliveries, a receiver's
 * detail showing its signing key, and a second tenant's receiver issued the first tenant's key.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it on every call, as it records that tenant from the first. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const REDELIVER = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/redeliver$/;
const DELIVERIES = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const DETAIL = /^\/api\/public\/v1\/webhooks\/([^/]+)$/;
const isRegistration = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
/** JSON.stringify's output with every non-ASCII character written as a \u escape. */
const asciiOnly = (text: string) =>
  text.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const ROUND33_CHANNELS: UnseenViolation[] = [
  {
    name: 'delivery-log-keeps-newest-attempt-only',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a re-triggered delivery keeps its earlier attempts on record)',
    answer(c, a) {
      // The log row is upserted per delivery with the attempt as a column, so a repeat overwrites the first.
      if (c.method !== 'GET' || !DELIVERIES.test(c.path) || a.status !== 200) return;
      for (const d of (a.json.data?.deliveries ?? []) as Rec[])
        if (Array.isArray(d?.attempts) && d.attempts.length > 1) d.attempts = d.attempts.slice(-1);
    },
  },
  {
    name: 'redelivery-of-unknown-delivery-acknowledged',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier (re-triggering a delivery the log does not hold)',
    answer(c, a) {
      // The redelivery queue accepts any id and reports "queued"; the worker drops it later.
      const m = REDELIVER.exec(c.path);
      if (c.method !== 'POST' || !m || a.status !== 404) return;
      const { replayed: _r, ...meta } = (a.json.meta ?? {}) as Rec;
      a.status = 200;
      a.json = { ok: true, data: { id: m[2], receiverId: m[1], status: 'pending', attempts: [] }, meta };
    },
  },
  {
    name: 'signature-over-ascii-escaped-body',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256 … over the text <t>, a dot, and the unchanged raw request body (also when the body holds non-ASCII text)',
    sign(body, secret, t) {
      // The signer re-serialises with an ASCII-only JSON encoder; the sender posts the original UTF-8 text.
      return signWebhook(asciiOnly(body), secret, t);
    },
  },
  {
    name: 'sibling-tenant-redelivers-deliveries',
    statement:
      'Errors: not_found | 404 | entry belongs to another tenant (a second tenant re-triggering the first tenant’s delivery)',
    request(c) {
      // The redelivery handler looks the delivery up by id alone and acts in the owner's name.
      const second = isSecond(c);
      if (!second || c.method !== 'POST' || !REDELIVER.test(c.path)) return undefined;
      const first = home(c);
      if (first) c.headers['x-service-tenant'] = first;
      return undefined;
    },
  },
  {
    name: 'webhook-detail-shows-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response (reading the receiver later does not show it)',
    answer(c, a) {
      // The detail view serialises the whole receiver row, secret column included.
      if (isRegistration(c) && a.status === 200) {
        const { id, signingSecret } = (a.json.data ?? {}) as Rec;
        if (typeof id === 'string' && typeof signingSecret === 'string')
          c.memory.set(`r33-secret:${id}`, signingSecret);
        return;
      }
      const m = DETAIL.exec(c.path);
      if (c.method !== 'GET' || !m || a.status !== 200 || !a.json.data) return;
      const secret = c.memory.get(`r33-secret:${m[1]}`);
      if (typeof secret === 'string') a.json.data.signingSecret = secret;
    },
  },
  {
    name: 'second-tenant-receiver-issued-home-signing-key',
    statement:
      'Webhooks: Signature rule: … keyed with the signing key (the key issued for that receiver, also for a second tenant’s receiver)',
    answer(c, a) {
      // The response reads the key from a per-client cache filled by the first tenant's registration,
      // while deliveries are signed with the receiver's own key.
      const second = isSecond(c);
      if (!isRegistration(c) || a.status !== 200 || typeof a.json.data?.signingSecret !== 'string') return;
      if (!second) return void c.memory.set('r33-home-secret', a.json.data.signingSecret);
      const first = c.memory.get('r33-home-secret');
      if (typeof first === 'string' && a.json.meta?.replayed !== true) a.json.data.signingSecret = first;
    },
  },
];
