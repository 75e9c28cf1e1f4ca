import { createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 27 of the unseen violations, part 3: webhooks, the delivery log and rate-limit headers — a
 * redelivery acknowledged without sending anything, a signature header with a trailing comma, an HMAC
 * keyed with a per-timestamp derived key, the signing key listed again on the alternate address, and
 * the rate-limit headers of writes spelt X-Rate-Limit-*.
 */
type Rec = Record<string, any>;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
const isWebhookCreate = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');

export const ROUND27_CHANNELS: UnseenViolation[] = [
  {
    name: 'redelivery-acknowledged-not-sent',
    statement: 'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request.',
    request(c) {
      // The redeliver handler enqueues onto a queue no worker consumes (renamed in a refactoring) and
      // answers with the delivery as it stands: nothing is ever sent again.
      if (c.method !== 'POST' || !REDELIVER.test(c.path)) return undefined;
      const [, , , , , webhookId, , deliveryId] = c.path.split('/');
      c.memory.set('r27-redeliver', deliveryId);
      c.method = 'GET';
      c.path = P(`/webhooks/${webhookId}/deliveries`);
      c.body = undefined;
      delete c.headers['content-type'];
      return undefined;
    },
    answer(c, a) {
      // Serve the one delivery the caller named, as the real handler would.
      const id = c.memory.get('r27-redeliver');
      if (c.method !== 'GET' || !/\/deliveries$/.test(c.path) || id === undefined) return;
      c.memory.delete('r27-redeliver');
      const one = ((a.json.data?.deliveries ?? []) as Rec[]).find((d) => d.id === id);
      if (one) a.json.data = one;
    },
  },
  {
    name: 'signature-header-trailing-comma',
    statement: 'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature>.',
    sign(body, secret, t) {
      // The header is built by appending "<name>=<value>," for each part, without trimming the last comma.
      const mac = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
      return `t=${t},v1=${mac},`;
    },
  },
  {
    name: 'signature-key-derived-per-timestamp',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // A "key rotation per request" idea: the MAC key is HMAC(signing key, t), as some cloud signers do.
      const derived = createHmac('sha256', secret).update(String(t), 'utf8').digest();
      const mac = createHmac('sha256', derived).update(`${t}.${body}`, 'utf8').digest('hex');
      return `t=${t},v1=${mac}`;
    },
  },
  {
    name: 'alt-webhook-list-shows-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once.',
    answer(c, a) {
      // The alternate address's read model is fed from the write model unfiltered: the signing key
      // of each receiver appears in every later read there.
      if (isWebhookCreate(c) && a.status === 200 && a.json.data?.id) {
        const secret = a.json.data.signingSecret;
        if (typeof secret === 'string') c.memory.set(`r27-secret:${a.json.data.id}`, secret);
        return;
      }
      if (c.base !== 'alt' || c.method !== 'GET' || a.status !== 200) return;
      const data = a.json.data as Rec | undefined;
      const rows = (Array.isArray(data?.webhooks) ? data.webhooks : data?.id ? [data] : []) as Rec[];
      for (const r of rows) {
        const secret = c.memory.get(`r27-secret:${r.id}`);
        if (typeof secret === 'string') r.signingSecret = secret;
      }
    },
  },
  {
    name: 'writes-rate-limit-headers-hyphenated',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // Writes pass a second gateway whose plugin renames the headers to its own X-Rate-Limit-* spelling.
      if (c.method !== 'POST') return;
      for (const [from, to] of [
        ['x-ratelimit-limit', 'x-rate-limit-limit'],
        ['x-ratelimit-remaining', 'x-rate-limit-remaining'],
      ] as const) {
        const value = a.headers[from];
        if (value === undefined) continue;
        delete a.headers[from];
        a.headers[to] = value;
      }
    },
  },
];
