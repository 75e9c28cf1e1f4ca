import { createHmac } from 'node:crypto';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P, refuse } from './proxy-helpers.ts';
import { altSecond, isSecond, type Rec } from './round44-common.ts';

/** Round 50, part 4: signing forms, the delivery log's ids, redelivery per tenant, audit proof, the stream per place. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
/** Sorts object keys at every depth (what a canonicalising signer does before it signs). */
const sortKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortKeys)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v as Rec)
            .sort()
            .map((k) => [k, sortKeys((v as Rec)[k])]),
        )
      : v;

export const ROUND50_CHANNELS: UnseenViolation[] = [
  {
    name: 'signature-over-body-keys-sorted',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256 over <t>, a dot, and the unchanged raw request body (the signer canonicalises first)',
    sign(body, secret, t) {
      // The signing library canonicalises JSON (sorted keys) before hashing, while the sender posts the original text.
      let signed = body;
      try {
        signed = JSON.stringify(sortKeys(JSON.parse(body)));
      } catch {
        // Not JSON: signed as is.
      }
      return signWebhook(signed, secret, t);
    },
  },
  {
    name: 'signature-v1-base64-encoded',
    statement:
      'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature> ... written as lowercase hex (the digest’s encoding)',
    sign(body, secret, t) {
      // The signer reuses the HMAC helper of the token service, whose default digest encoding is base64.
      return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('base64')}`;
    },
  },
  {
    name: 'delivery-signature-t-with-milliseconds-fraction',
    statement: 'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature> (the t part)',
    deliver(d) {
      // The HTTP client's header builder formats the timestamp with Date.now()/1000 and keeps the fraction.
      for (const [k, v] of Object.entries(d.headers))
        if (/^t=\d+,v1=/.test(v))
          d.headers[k] = v.replace(/^t=(\d+)/, (_m, t: string) => `t=${t}.${Date.now() % 1000}`);
    },
  },
  {
    name: 'delivery-log-ids-not-redeliverable',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (an id shown in the log)',
    answer(c, a) {
      // The log is served from a read model whose ids carry a version suffix the redelivery route does not know.
      home(c);
      const list = a.json.data?.deliveries as Rec[] | undefined;
      if (c.method !== 'GET' || !LOG.test(c.path) || !Array.isArray(list)) return;
      for (const d of list) if (typeof d?.id === 'string') d.id = `${d.id}.v2`;
    },
  },
  {
    name: 'second-tenant-redelivery-not-found',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a redelivery for the second tenant)',
    answer(c, a) {
      // The redelivery worker looks deliveries up under the token's first tenant only.
      const second = isSecond(c);
      if (second && c.method === 'POST' && REDELIVER.test(c.path) && a.status === 200)
        refuse(a, 404, 'not_found', 'The entry does not exist.');
    },
  },
  {
    name: 'alt-second-tenant-audit-hashes-truncated',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (the second tenant under {alt_base_url})',
    answer(c, a) {
      // The alternate replica stores the second tenant's chain in a column sized for 32 hex characters.
      const both = altSecond(c);
      const data = a.json.data as Rec | undefined;
      if (!both || c.method !== 'GET' || c.path !== P('/audit-log') || !Array.isArray(data?.entries)) return;
      const cut = (h: unknown) => (typeof h === 'string' && /^[0-9a-f]{64}$/.test(h) ? h.slice(0, 32) : h);
      for (const e of data.entries as Rec[]) if (e) [e.hash, e.prevHash] = [cut(e.hash), cut(e.prevHash)];
      const proof = data.proof as Rec | undefined;
      if (proof) for (const k of Object.keys(proof)) proof[k] = cut(proof[k]);
    },
  },
  {
    name: 'second-tenant-stream-resume-repeats-last-read',
    statement:
      'Events: After an interruption, the client resumes without gaps; every message arrives exactly once (a resumption naming the second tenant)',
    request(c) {
      // The second tenant's feed stores positions one-based, and the resume code subtracts one to convert.
      const second = isSecond(c);
      if (!second || !isStream(c)) return undefined;
      const cursor = Number(c.search.get('cursor'));
      const last = Number(c.headers['last-event-id']);
      if (c.search.has('cursor') && cursor > 0) c.search.set('cursor', String(cursor - 1));
      if (c.headers['last-event-id'] && last > 0) c.headers['last-event-id'] = String(last - 1);
      return undefined;
    },
  },
  {
    name: 'alt-live-stream-messages-doubled',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a live reader under {alt_base_url})',
    stream(c, lines) {
      // The alternate address subscribes to both the regional and the global topic and forwards from each.
      home(c);
      const resumed = c.search.has('cursor') || c.headers['last-event-id'] !== undefined;
      if (c.base !== 'alt' || !isStream(c) || resumed) return lines;
      return lines.replace(/^id: \d+\n(?:[^\n]+\n)*\n/gm, (block) => block + block);
    },
  },
];
