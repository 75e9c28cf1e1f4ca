import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

const sign = (key: string | Buffer, t: string, raw: Buffer) =>
  createHmac('sha256', key).update(`${t}.`).update(raw).digest('hex');
/** The header as a strict receiver reads it: exactly t=<seconds>,v1=<64 lowercase hex>. */
const strictHeader = (header: string | undefined) => /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '');
const within = (t: string, windowS: number) => Math.abs(Date.now() / 1000 - Number(t)) <= windowS;

/**
 * Round 6 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds
 * 300 seconds."
 */
export const RECEIVERS_6: ReceiverKind[] = [
  // Constant time without timingSafeEqual (a stack that lacks one, as Rack::Utils.secure_compare once
  // did): both signatures are HMACed again under a random per-process key and those digests compared,
  // so a mismatch's position leaks nothing ("double HMAC").
  {
    does: 'parses the header with a strict pattern and compares by double HMAC (both signatures HMACed again under a random key)',
    passes: true,
    verify: (() => {
      const blind = randomBytes(32);
      const again = (hex: string) => createHmac('sha256', blind).update(hex).digest('hex');
      return (raw: Buffer, header: string | undefined, secret: string) => {
        const m = strictHeader(header);
        if (!m?.[1] || !m[2] || !within(m[1], 300)) return false;
        return again(m[2]) === again(sign(secret, m[1], raw));
      };
    })(),
  },
  // An inbox table: a verified delivery is inserted by its delivery id (ON CONFLICT DO NOTHING) and
  // acknowledged either way, so a redelivery is acknowledged without being processed twice.
  {
    does: 'verifies with timingSafeEqual and a 300 s window, inserts each delivery into an inbox table by delivery id (ON CONFLICT DO NOTHING) and acknowledges a duplicate without processing it again',
    passes: true,
    verify: (() => {
      const inbox = new Map<string, number>();
      return (raw: Buffer, header: string | undefined, secret: string, id: string) => {
        const m = strictHeader(header);
        if (!m?.[1] || !m[2] || !within(m[1], 300)) return false;
        const expected = Buffer.from(sign(secret, m[1], raw));
        if (!timingSafeEqual(Buffer.from(m[2]), expected)) return false;
        inbox.set(id, (inbox.get(id) ?? 0) + 1); // processed when the count turns 1
        return true;
      };
    })(),
  },
  // "rejects the delivery when the difference between t and the current time exceeds 300 seconds": a
  // tolerance raised to an hour "because our servers' clocks drift" takes stale and future deliveries.
  {
    does: 'verifies the signature in constant time but accepts timestamps up to an hour off ("our clocks drift")',
    passes: false,
    verify: (raw, header, secret) => {
      const m = strictHeader(header);
      if (!m?.[1] || !m[2] || !within(m[1], 3_600)) return false;
      return timingSafeEqual(Buffer.from(m[2]), Buffer.from(sign(secret, m[1], raw)));
    },
  },
  // "keyed with the signing key": a receiver built on a Standard Webhooks library strips the whsec_
  // prefix and base64-decodes the rest as the key, as that scheme does; this interface keys the HMAC
  // with the signing key as issued, so every genuine delivery is refused.
  {
    does: 'keys the HMAC with the signing key base64-decoded after its whsec_ prefix (the Standard Webhooks convention), not with the key as issued',
    passes: false,
    verify: (raw, header, secret) => {
      const m = strictHeader(header);
      if (!m?.[1] || !m[2] || !within(m[1], 300)) return false;
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return timingSafeEqual(Buffer.from(m[2]), Buffer.from(sign(key, m[1], raw)));
    },
  },
  // "The receiver compares in constant time": this one compares with ===, which returns at the first
  // differing character. That breaks the sentence, but no black-box check can see it: a timing attack
  // needs many thousands of measured deliveries, and each answer here is the right one. The receiver
  // check passes it; the test states that limit (it is reported, not a verdict the rules can reach).
  {
    does: 'compares the signature with === (not constant time: invisible over the wire, so the receiver check passes it)',
    passes: true,
    verify: (raw, header, secret) => {
      const m = strictHeader(header);
      return Boolean(m?.[1] && m[2] && within(m[1], 300) && m[2] === sign(secret, m[1], raw));
    },
  },
];
