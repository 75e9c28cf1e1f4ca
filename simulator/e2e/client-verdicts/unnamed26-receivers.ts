import { createHmac, timingSafeEqual } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 26 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." An AWS Lambda function URL (the body arrives base64-encoded), a receiver trying gzip first, one
 * accepting any of several v1 entries; one hashing the base64 text, one decoding the key as base64.
 */
const fields = (h: string | undefined) => {
  const v1: string[] = [];
  let t = '';
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim().toLowerCase();
    const value = part.slice(at + 1).trim();
    if (name === 't') t = value;
    if (name === 'v1') v1.push(value);
  }
  return { t, v1 };
};
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300;
const hexOf = (key: string | Buffer, t: string, body: Buffer | string) =>
  createHmac('sha256', key).update(`${t}.`).update(body).digest('hex');
const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** What a Lambda function URL hands the handler: `event.body` base64-encoded, `isBase64Encoded: true`. */
const lambdaEvent = (raw: Buffer) => ({ body: raw.toString('base64'), isBase64Encoded: true });

export const RECEIVERS_26: ReceiverKind[] = [
  // A Lambda function URL: `Buffer.from(event.body, 'base64')` when isBase64Encoded, then the HMAC over the
  // decoded bytes; headers arrive lower-cased.
  {
    does: 'is a Lambda function URL handler decoding the base64 event.body to bytes before the HMAC, constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const event = lambdaEvent(raw);
      const body = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body);
      const { t, v1 } = fields(h?.toLowerCase());
      return fresh(t) && v1.length === 1 && same(v1[0] ?? '', hexOf(secret, t, body));
    },
  },
  // A receiver behind a CDN that may compress: it tries gunzip and, when the body is no gzip, verifies the
  // raw bytes as they came (what was signed).
  {
    does: 'tries gunzip on the body and, when it is no gzip, verifies the raw bytes as received, constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      let body = raw;
      try {
        body = gunzipSync(raw);
      } catch {}
      const { t, v1 } = fields(h);
      return fresh(t) && v1.length === 1 && same(v1[0] ?? '', hexOf(secret, t, body));
    },
  },
  // A receiver ready for signing-key rotation: it accepts when any v1 entry of the header matches, each
  // compared in constant time.
  {
    does: 'accepts when any of several v1 entries matches (ready for key rotation), each compared in constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const mine = hexOf(secret, t, raw);
      return fresh(t) && v1.length > 0 && v1.map((s) => same(s, mine)).some(Boolean);
    },
  },
  // A Lambda handler hashing `event.body` as it arrives: the base64 text, not the raw body, so the valid
  // delivery is refused.
  {
    does: 'is a Lambda function URL handler hashing event.body as given (the base64 text, not the raw body)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return fresh(t) && same(v1[0] ?? '', hexOf(secret, t, lambdaEvent(raw).body));
    },
  },
  // A receiver copied from a provider whose secrets are `whsec_<base64>`: it decodes the signing key as
  // base64 before keying the HMAC, so it keys it with other bytes than the signing key.
  {
    does: 'decodes the signing key as base64 (a whsec_ habit) before keying the HMAC',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return fresh(t) && same(v1[0] ?? '', hexOf(key, t, raw));
    },
  },
];
