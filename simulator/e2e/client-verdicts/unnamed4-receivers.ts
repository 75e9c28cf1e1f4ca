import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind2 } from './unnamed2-receivers.ts';

/**
 * Round 4 of the receivers: verifiers of well-known webhook libraries, adapted to this interface's
 * rule: "The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot,
 * and the unchanged raw request body, written as lowercase hex. The receiver compares in constant time
 * and rejects the delivery when the difference between t and the current time exceeds 300 seconds."
 */

const expected = (secret: string, t: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const constantTimeEqual = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const nowSeconds = () => Math.floor(Date.now() / 1000);

export const RECEIVERS_4: ReceiverKind2[] = [
  {
    // Svix / Standard Webhooks `Webhook.verify`: a tolerance of 5 minutes each way (too old, too new),
    // every signature the header lists is tried (a rotation sends several), compared in constant time.
    does: 'verifies like Svix/Standard Webhooks (5 min tolerance both ways, any of several v1 signatures, constant time)',
    passes: true,
    verify: (raw, header, secret) => {
      const parts = (header ?? '').split(',').map((p) => p.trim().split('=') as [string, string | undefined]);
      const t = parts.find(([k]) => k === 't')?.[1] ?? '';
      if (!/^\d+$/.test(t)) return false;
      const ts = Number(t);
      if (nowSeconds() - ts > 300 || ts > nowSeconds() + 300) return false;
      const want = expected(secret, t, raw);
      return parts.some(([k, v]) => k === 'v1' && v !== undefined && constantTimeEqual(v, want));
    },
  },
  {
    // Express with `express.raw({ type: 'application/json' })` on the webhook route: req.body is the
    // raw Buffer, verified before JSON.parse.
    does: "verifies in an Express route behind express.raw({ type: 'application/json' }), parsing JSON only after",
    passes: true,
    verify: (raw, header, secret) => {
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
      if (!m?.[1] || !m[2] || Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false;
      if (!constantTimeEqual(m[2], expected(secret, m[1], raw))) return false;
      try {
        JSON.parse(raw.toString('utf8'));
        return true;
      } catch {
        return false;
      }
    },
  },
  {
    // Express with app.use(express.json()) before the route: the raw body is gone, and
    // JSON.stringify(req.body) is what gets verified; a delivery with spaces never matches.
    does: 'verifies in an Express app whose express.json() parsed the body first, so it signs JSON.stringify(req.body)',
    passes: false,
    verify: (raw, header, secret) => {
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
      if (!m?.[1] || !m[2] || Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false;
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return false;
      }
      return constantTimeEqual(m[2], expected(secret, m[1], JSON.stringify(body)));
    },
  },
  {
    // stripe-node `webhooks.constructEvent(body, header, secret, tolerance = 300)`: it refuses a
    // timestamp older than the tolerance but never one in the future (its age is negative).
    does: "verifies like stripe-node's constructEvent with a 300 s tolerance, which refuses old timestamps but not future ones",
    passes: false,
    verify: (raw, header, secret) => {
      const m = /^t=(\d+),v1=([0-9a-f]+)$/.exec(header ?? '');
      if (!m?.[1] || !m[2]) return false;
      if (!constantTimeEqual(m[2], expected(secret, m[1], raw))) return false;
      return nowSeconds() - Number(m[1]) <= 300;
    },
  },
];
