import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 29 receivers in frameworks no earlier round used (Gin, Rails ActionController with two secrets,
 * Deno Fresh). "The receiver compares in constant time and rejects the delivery when the difference
 * between t and the current time exceeds 300 seconds." Two pass by unusual means (hmac.Equal on the hex
 * text, a rotation list whose unset entry is dropped rather than read as ""); two fail by a slip that looks
 * careful (the body bound as JSON before the raw bytes are read, a window check on `new Date(t)`).
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
const hexMac = (secret: string, t: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(Math.floor(Date.now() / 1000) - Number(t)) <= 300;
/** Go's hmac.Equal / subtle.ConstantTimeCompare: false at once on other lengths, constant time otherwise. */
const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export const RECEIVERS_29: ReceiverKind[] = [
  // Gin: `c.GetRawData()` first, then hmac.Equal on the hex text against hex.EncodeToString(mac.Sum(nil)).
  {
    does: 'is a Gin receiver reading c.GetRawData() first and comparing the hex text with hmac.Equal, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return fresh(t) && equal(v1, hexMac(secret, t, raw));
    },
  },
  // Rails: `[current, previous].compact.any? { |s| ActiveSupport::SecurityUtils.secure_compare(...) }`
  // with the previous secret unset once a rotation ended (compact drops it, so no empty key is tried);
  // secure_compare hashes both sides first, so lengths never leak or throw.
  {
    does: 'is a Rails controller trying [current, previous].compact with secure_compare (both sides hashed first), the previous secret unset after a rotation, 300 s window',
    passes: true,
    verify: (() => {
      // The previous secret comes from an environment variable nobody set after the rotation ended.
      const previous = process.env.NCS_PREVIOUS_WEBHOOK_SECRET_ROUND_29;
      const digest = (s: string) => createHash('sha256').update(s).digest();
      return (raw: Buffer, h: string | undefined, secret: string) => {
        const { t, v1 } = fields(h);
        const secrets = [secret, previous].filter((s): s is string => typeof s === 'string');
        return fresh(t) && secrets.some((s) => timingSafeEqual(digest(v1), digest(hexMac(s, t, raw))));
      };
    })(),
  },
  // Gin: `c.ShouldBindJSON(&event)` runs first and drains the body, so `c.GetRawData()` returns nothing and
  // the HMAC is over an empty body: every delivery is refused, the valid ones too.
  {
    does: 'is a Gin receiver that binds the JSON (ShouldBindJSON) before reading the raw body, so it verifies an empty body',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const drained = raw.subarray(raw.length);
      return fresh(t) && equal(v1, hexMac(secret, t, drained));
    },
  },
  // Deno Fresh: `new Date(t)` on "1764...": an Invalid Date, so `Math.abs(now - date) > 300_000` is NaN > n,
  // false, and the window never refuses anything; the signature is checked in constant time.
  {
    does: 'is a Deno Fresh handler checking the window with new Date(t) (an Invalid Date for epoch seconds, so never stale), signature in constant time',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const stale = Math.abs(Date.now() - new Date(t).getTime()) > 300_000;
      return !stale && equal(v1, hexMac(secret, t, raw));
    },
  },
];
