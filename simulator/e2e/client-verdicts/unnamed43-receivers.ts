import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 43 receivers. "The receiver compares in constant time and rejects the delivery when the difference
 * between t and the current time exceeds 300 seconds." Two pass (a receiver reading a clock cached for up to
 * 1 s, which narrows its window to 298 s to make up for it; an Axum handler comparing HMACs of both sides under
 * a per-process key, the double-HMAC pattern); two fail by a slip that looks careful (a Standard Webhooks style
 * library base64-decoding the secret after `whsec_`, so genuine deliveries are refused; a window computed with
 * `Date.parse(t)`, NaN for a Unix time, so no comparison ever rejects).
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
const hex = (key: string | Buffer, t: string, body: Buffer) =>
  createHmac('sha256', key).update(`${t}.`).update(body).digest('hex');
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};
const numeric = (t: string) => /^\d+$/.test(t);

/** A clock read at most once a second (a cached "now", as a framework's date cache keeps it). */
function cachedClock() {
  let cached = 0;
  let readAt = 0;
  return () => {
    if (performance.now() - readAt >= 1_000 || !cached) {
      cached = Date.now() / 1000;
      readAt = performance.now();
    }
    return cached;
  };
}

function coarseReceiver() {
  const now = cachedClock();
  return (raw: Buffer, h: string | undefined, secret: string) => {
    const { t, v1 } = fields(h);
    // The cached value lags by up to 1 s: 298 s keeps every delivery more than 300 s off out.
    return numeric(t) && Math.abs(now() - Number(t)) <= 298 && sameText(v1, hex(secret, t, raw));
  };
}

function doubleHmac() {
  const local = randomBytes(32);
  const mac = (s: string) => createHmac('sha256', local).update(s).digest();
  return (raw: Buffer, h: string | undefined, secret: string) => {
    const { t, v1 } = fields(h);
    if (!numeric(t) || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
    return timingSafeEqual(mac(v1), mac(hex(secret, t, raw)));
  };
}

export const RECEIVERS_43: ReceiverKind[] = [
  {
    does: 'reads a clock cached for up to 1 s and narrows its window to 298 s to make up for the lag, comparing the hex in constant time',
    passes: true,
    verify: coarseReceiver(),
  },
  {
    does: 'is an Axum handler comparing HMAC(per-process key, v1) with HMAC(per-process key, expected) in constant time (double HMAC), 300 s window',
    passes: true,
    verify: doubleHmac(),
  },
  // Standard Webhooks libraries take a `whsec_`-prefixed base64 secret; this one is not, and decodes to other bytes.
  {
    does: 'uses a Standard Webhooks style verifier that strips whsec_ and base64-decodes the signing secret before the HMAC, 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return numeric(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300 && sameText(v1, hex(key, t, raw));
    },
  },
  // Date.parse('1764350000') is NaN, and every comparison with NaN is false: the window never rejects.
  {
    does: 'refuses when Math.abs(Date.now() - Date.parse(t)) / 1000 > 300 (NaN for a Unix time, so never), comparing the hex in constant time',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (Math.abs(Date.now() - Date.parse(t)) / 1000 > 300) return false;
      return sameText(v1, hex(secret, t, raw));
    },
  },
];
