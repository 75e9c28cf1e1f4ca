import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 40 receivers in frameworks no earlier round used (Jooby, Kitura, Oat++, Tcl's wapp). "The receiver
 * compares in constant time and rejects the delivery when the difference between t and the current time
 * exceeds 300 seconds." Two pass (Jooby comparing the decoded bytes with MessageDigest.isEqual; Kitura
 * lower-casing the received hex first, which the check takes as advisory); two fail by a slip that looks
 * careful (Oat++ comparing only as many hex digits as were sent; wapp decoding the secret as Svix does,
 * base64 after its whsec_ prefix, so it signs with other bytes than the service and refuses valid deliveries).
 */
const fields = (h: string | undefined) => {
  const out = { t: '', v1: '' };
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    if (name === 't') out.t = part.slice(at + 1).trim();
    if (name === 'v1' && !out.v1) out.v1 = part.slice(at + 1).trim();
  }
  return out;
};
const tag = (secret: string | Buffer, t: string, body: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300;
const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

export const RECEIVERS_40: ReceiverKind[] = [
  // Jooby: hex decoded to bytes on both sides, MessageDigest.isEqual (constant time since Java 6u17).
  {
    does: 'is a Jooby route decoding both signatures from hex and comparing the bytes with MessageDigest.isEqual, with a 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!fresh(t) || !/^[0-9a-fA-F]{64}$/.test(v1)) return false;
      return sameBytes(Buffer.from(tag(secret, t, raw), 'hex'), Buffer.from(v1, 'hex'));
    },
  },
  // Kitura: lower-cases what was sent before a constant-time compare (upper case is advisory only).
  {
    does: 'is a Kitura router lower-casing the received hex before a constant-time compare of the raw body’s HMAC, with a 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return fresh(t) && sameBytes(Buffer.from(tag(secret, t, raw)), Buffer.from(v1.toLowerCase()));
    },
  },
  // Oat++: `CRYPTO_memcmp(expected, sent, sent.size())`: constant time, but over the length sent.
  {
    does: 'is an Oat++ endpoint comparing with CRYPTO_memcmp over the length of the signature sent, with a 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!fresh(t) || v1.length === 0) return false;
      const expected = Buffer.from(tag(secret, t, raw)).subarray(0, v1.length);
      return sameBytes(expected, Buffer.from(v1));
    },
  },
  // wapp: the secret decoded as Svix secrets are (base64 after `whsec_`): other key bytes than the service's.
  {
    does: 'is a Tcl wapp handler decoding the secret as Svix does (base64 after whsec_) before a constant-time HMAC compare, with a 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return fresh(t) && sameBytes(Buffer.from(tag(key, t, raw)), Buffer.from(v1));
    },
  },
];
