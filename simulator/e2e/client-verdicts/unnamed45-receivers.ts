import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 45 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>,
 * a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in constant time
 * and rejects the delivery when the difference between t and the current time exceeds 300 seconds." Two pass
 * (several v1 values in one header, any one matching, as Stripe's libraries accept; a strict lowercase-hex
 * grammar checked before the HMAC); two fail by a slip that looks careful (the signing key base64-decoded
 * after its `whsec_` prefix, as Svix's libraries do with theirs; the expected MAC cut to the length received
 * "to avoid timingSafeEqual's RangeError").
 */
const mac = (key: string | Buffer, t: string, body: Buffer) =>
  createHmac('sha256', key).update(`${t}.`).update(body).digest();
const within = (t: string, windowS: number) =>
  /^\d{1,12}$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= windowS;

/** Every `name=value` pair of the header, in order, names trimmed. */
const pairs = (h: string | undefined) =>
  (h ?? '').split(',').map((p) => {
    const at = p.indexOf('=');
    return [p.slice(0, at).trim(), p.slice(at + 1).trim()] as const;
  });
const first = (h: string | undefined, name: string) => pairs(h).find(([n]) => n === name)?.[1] ?? '';

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

export const RECEIVERS_45: ReceiverKind[] = [
  {
    does: 'accepts a header with several v1 values when any one of them, hex-decoded, equals the HMAC in constant time (Stripe style), 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      if (!within(t, 300)) return false;
      const want = mac(secret, t, raw);
      const candidates = pairs(h).filter(([n, v]) => n === 'v1' && /^[0-9a-fA-F]{64}$/.test(v));
      return candidates.some(([, v]) => sameBytes(Buffer.from(v, 'hex'), want));
    },
  },
  {
    does: 'refuses any v1 that is not exactly 64 lowercase hex digits before computing the HMAC, then compares the hex strings in constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      const v1 = first(h, 'v1');
      if (!/^[0-9a-f]{64}$/.test(v1) || !within(t, 300)) return false;
      return sameBytes(Buffer.from(v1, 'latin1'), Buffer.from(mac(secret, t, raw).toString('hex'), 'latin1'));
    },
  },
  // The interface says "keyed with the signing key": the key as issued, not its base64 decoding.
  {
    does: 'keys the HMAC with the signing key base64-decoded after its whsec_ prefix (as Svix libraries treat their secrets), comparing in constant time with a 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return within(t, 300) && sameBytes(Buffer.from(first(h, 'v1'), 'hex'), mac(key, t, raw));
    },
  },
  // A compare over the length received takes a cut signature, and an empty one compares zero bytes.
  {
    does: 'cuts the expected MAC to the length of the decoded v1 before timingSafeEqual “so it never throws a RangeError”, 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      if (!within(t, 300)) return false;
      const got = Buffer.from(first(h, 'v1'), 'hex');
      return timingSafeEqual(got, mac(secret, t, raw).subarray(0, got.length));
    },
  },
];
