import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 35 receivers in frameworks no earlier round used (Python Starlette, Rust hyper, a Java Jetty
 * servlet, Perl Dancer2). "The receiver compares in constant time and rejects the delivery when the
 * difference between t and the current time exceeds 300 seconds." Two pass (Starlette with a key rotation
 * list whose previous key is really set; hyper with `ring::hmac::verify` and a 240 s window); two fail by
 * a slip that looks careful (Jetty comparing seconds with `Duration.ofMinutes(5).toMillis()`; Dancer2
 * matching the expected hex against `/^\Q$v1\E/`, a prefix).
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
const hexTag = (secret: string, t: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const skewS = (t: string) => (/^\d+$/.test(t) ? Math.abs(Date.now() / 1000 - Number(t)) : Number.POSITIVE_INFINITY);
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
/** A real previous signing secret, retired at the last rotation (set, so never ""). */
const PREVIOUS = 'whsec_retired_2026_10_rotation_4f9c1e';

export const RECEIVERS_35: ReceiverKind[] = [
  // Starlette: `await request.body()` raw; tries [CURRENT, PREVIOUS] (both set) with compare_digest.
  {
    does: 'is a Python Starlette endpoint hashing await request.body(), refusing abs(time.time() - t) > 300, trying a rotation list [current, previous] (both set) with hmac.compare_digest',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (skewS(t) > 300) return false;
      return [secret, PREVIOUS].some((key) => sameText(hexTag(key, t, raw), v1));
    },
  },
  // hyper: `body.collect().await?.to_bytes()`, a 240 s window, `ring::hmac::verify` over the decoded tag.
  {
    does: 'is a Rust hyper service collecting the body to Bytes, a 240 s window, ring::hmac::verify over the hex-decoded v1',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (skewS(t) > 240 || !/^(?:[0-9a-f]{2})+$/i.test(v1)) return false;
      const given = Buffer.from(v1, 'hex');
      const expected = Buffer.from(hexTag(secret, t, raw), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  },
  // Jetty: `Math.abs(Instant.now().getEpochSecond() - t) > Duration.ofMinutes(5).toMillis()`: seconds
  // against 300,000, so a delivery 301 s old (or ahead) is taken.
  {
    does: 'is a Java Jetty servlet comparing MessageDigest.isEqual but refusing only when abs(epochSecond - t) > Duration.ofMinutes(5).toMillis() (seconds against 300000)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return skewS(t) <= 300_000 && sameText(hexTag(secret, t, raw), v1);
    },
  },
  // Dancer2: `$expected =~ /^\Q$v1\E/` after a 300 s check: a truncated or empty v1 is a prefix of it.
  {
    does: 'is a Perl Dancer2 route checking the 300 s window and then matching the expected hex against /^\\Q$v1\\E/ (a prefix match)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return skewS(t) <= 300 && hexTag(secret, t, raw).startsWith(v1);
    },
  },
];
