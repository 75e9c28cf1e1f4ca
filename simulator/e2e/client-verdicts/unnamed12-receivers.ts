import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 12 receivers: behind a CDN, in an edge worker, in Rack, and three careless ones. "The signature
 * is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw
 * request body, written as lowercase hex. The receiver compares in constant time and rejects the
 * delivery when the difference between t and the current time exceeds 300 seconds."
 */
const hmac = (key: string, text: Buffer) => createHmac('sha256', key).update(text).digest();
const parse = (h: string | undefined) => {
  const m = /^t=(\d+),v1=([0-9A-Za-z]*)$/.exec(h ?? '');
  return { t: m?.[1] ?? '', v1: m?.[2] ?? '' };
};
const signed = (t: string, raw: Buffer) => Buffer.concat([Buffer.from(`${t}.`), raw]);
const fresh = (t: string) => t !== '' && Math.abs(Math.floor(Date.now() / 1000) - Number(t)) <= 300;
/** A signing key the receiver mixed up: the one of another registration (its staging receiver). */
const STAGING_KEY = 'whsec_staging_receiver_5e0a7c1b';

export const RECEIVERS_12: ReceiverKind[] = [
  // An edge worker (Cloudflare-style) that decodes the hex and compares the MAC bytes in constant time,
  // as crypto.subtle.verify does; behind the CDN, which added its own headers (they are not signed).
  {
    does: 'is an edge worker behind a CDN (extra cdn-loop and via headers) decoding the hex and comparing MAC bytes in constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = parse(h);
      const got = Buffer.from(v1, 'hex');
      const want = hmac(secret, signed(t, raw));
      return fresh(t) && got.length === want.length && timingSafeEqual(got, want);
    },
  },
  // Ruby Rack: `Rack::Utils.secure_compare` on the hex strings and `(Time.now.to_i - t).abs <= 300`.
  {
    does: 'is a Ruby Rack middleware with Rack::Utils.secure_compare on the hex and (Time.now.to_i - t).abs <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = parse(h);
      const want = hmac(secret, signed(t, raw)).toString('hex');
      return fresh(t) && v1.length === want.length && timingSafeEqual(Buffer.from(v1), Buffer.from(want));
    },
  },
  // The CDN's IP is on an allow list, and the receiver skips verification for anything that came
  // through it: every delivery does.
  {
    does: 'skips verification for requests arriving through its CDN’s allow-listed addresses, which all deliveries do',
    passes: false,
    verify: () => true,
  },
  // The staging receiver's key deployed to this receiver: genuine deliveries are refused.
  {
    does: 'verifies with the signing key of another registration (its staging receiver’s), refusing genuine deliveries',
    passes: false,
    verify: (raw, h) => {
      const { t, v1 } = parse(h);
      const want = hmac(STAGING_KEY, signed(t, raw)).toString('hex');
      return fresh(t) && v1.length === want.length && timingSafeEqual(Buffer.from(v1), Buffer.from(want));
    },
  },
];

/**
 * A C receiver's `strncmp(v1, expected, strlen(v1)) == 0`: it compares only as many characters as were
 * sent, so an empty or one-character v1 passes. A probe: no case of the receiver check sends a
 * truncated signature (reported 2026-11-27; the check was not changed here).
 */
export const PROBE_RECEIVERS_12: ReceiverKind[] = [
  {
    does: 'compares only the first strlen(v1) characters of the signature (strncmp), so a truncated or empty v1 is accepted',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = parse(h);
      const want = hmac(secret, signed(t, raw)).toString('hex');
      return fresh(t) && want.startsWith(v1);
    },
  },
];
