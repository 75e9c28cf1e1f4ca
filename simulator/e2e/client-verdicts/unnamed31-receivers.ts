import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 31 receivers in frameworks no earlier round used (Litestar, Rocket, Javalin, Tornado). "The
 * receiver compares in constant time and rejects the delivery when the difference between t and the
 * current time exceeds 300 seconds." Two pass by unusual means (hmac.compare_digest on the raw body a
 * Litestar handler awaits; Rocket decoding the hex and letting ring's hmac::verify compare the bytes); two
 * fail by a slip that looks careful (Java's regionMatches over the length of what was sent, a window
 * written `now - t <= 300` that forgets the future).
 */
const fields = (h: string | undefined) => {
  let t = '';
  let v1 = '';
  for (const part of (h ?? '').split(',')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 't') t = rest.join('=');
    if (name === 'v1') v1 = rest.join('=');
  }
  return { t, v1 };
};
const mac = (secret: string, t: string, body: Buffer) => createHmac('sha256', secret).update(`${t}.`).update(body);
const nowS = () => Date.now() / 1000;
/** Python's hmac.compare_digest on str: constant time, false on other lengths. */
const compareDigest = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

export const RECEIVERS_31: ReceiverKind[] = [
  // Litestar: `await request.body()` (raw bytes), `abs(time.time() - int(t)) > 300` refused, compare_digest.
  {
    does: 'is a Litestar handler awaiting request.body() (raw bytes), refusing abs(time.time() - int(t)) > 300 and comparing hex with hmac.compare_digest',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      return compareDigest(mac(secret, t, raw).digest('hex'), v1);
    },
  },
  // Rocket: a `Data` guard read to bytes, `hex::decode(v1)` (upper case decodes too: advisory) and ring's
  // `hmac::verify`, which compares the decoded tag in constant time and fails on other lengths.
  {
    does: 'is a Rocket route reading the Data guard to bytes, decoding v1 with hex::decode and checking it with ring::hmac::verify, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      if (!/^(?:[0-9a-fA-F]{2})+$/.test(v1)) return false;
      const tag = Buffer.from(v1, 'hex');
      const expected = mac(secret, t, raw).digest();
      return tag.length === expected.length && timingSafeEqual(tag, expected);
    },
  },
  // Javalin: `expected.regionMatches(0, v1, 0, v1.length())`, written to avoid an exception on a short
  // header: a truncated (or empty) signature matches the start of the expected one.
  {
    does: 'is a Javalin handler comparing with expected.regionMatches(0, v1, 0, v1.length()), so a truncated or empty v1 matches',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      const expected = mac(secret, t, raw).digest('hex');
      return v1.length <= expected.length && expected.startsWith(v1);
    },
  },
  // Tornado: `if time.time() - int(t) > 300: raise HTTPError(400)`: a delivery dated ahead is never too old.
  {
    does: 'is a Tornado RequestHandler refusing only time.time() - int(t) > 300 (no abs), so a delivery 301 s ahead passes',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || nowS() - Number(t) > 300) return false;
      return compareDigest(mac(secret, t, raw).digest('hex'), v1);
    },
  },
];
