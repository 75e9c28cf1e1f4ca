import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 23 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." A Nuxt (Nitro) server route on `readRawBody(event, false)`, a Remix action on
 * `request.arrayBuffer()`, a Hono app on Cloudflare Workers using `crypto.subtle.verify`, a Go net/http
 * handler; a Remix action hashing a parsed object through a template string, and a window configured as 3600 s.
 */
const fields = (h: string | undefined) => {
  const out: Record<string, string> = {};
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return { t: out.t ?? '', v1: out.v1 ?? '' };
};
const within = (t: string, windowS: number) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= windowS;
const hexOf = (secret: string, t: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
export const RECEIVERS_23: ReceiverKind[] = [
  // Nuxt 3 (Nitro/h3): `readRawBody(event, false)` gives the Buffer as received, `crypto.timingSafeEqual`,
  // 300 s window.
  {
    does: 'is a Nuxt server route verifying readRawBody(event, false) with timingSafeEqual, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const body = Buffer.from(raw);
      const { t, v1 } = fields(h);
      return within(t, 300) && same(v1, hexOf(secret, t, body));
    },
  },
  // Remix: `Buffer.from(await request.arrayBuffer())` in the action before anything parses it, constant-time
  // compare, 300 s window.
  {
    does: 'is a Remix action verifying Buffer.from(await request.arrayBuffer()) in constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const ab = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
      const { t, v1 } = fields(h);
      return within(t, 300) && same(v1, hexOf(secret, t, Buffer.from(ab)));
    },
  },
  // Hono on Cloudflare Workers: `await c.req.arrayBuffer()`, the hex decoded to bytes and checked with
  // `crypto.subtle.verify('HMAC', key, sig, data)` (constant time), 300 s window.
  {
    does: 'is a Hono app on Cloudflare Workers verifying the arrayBuffer body with crypto.subtle.verify on the hex-decoded signature, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^[0-9a-f]{64}$/.test(v1) || !within(t, 300)) return false;
      const given = Buffer.from(v1, 'hex');
      const mine = createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
      return timingSafeEqual(given, mine);
    },
  },
  // Go net/http: `io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))`, `hmac.Equal`, `math.Abs(time.Since(
  // time.Unix(t, 0)).Seconds()) > 300` rejects.
  {
    does: 'is a Go net/http handler reading the body through MaxBytesReader, hmac.Equal, |time.Since(t)| > 300 s rejected',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const body = raw.subarray(0, 1 << 20);
      return within(t, 300) && same(v1, hexOf(secret, t, body));
    },
  },
  // A Remix action that ran `await request.json()` first and then signed `${t}.${payload}`: the object
  // turned into "[object Object]", so every genuine delivery is refused.
  {
    does: 'is a Remix action signing t, a dot and the payload interpolated from the parsed JSON object (the text "[object Object]"), in constant time',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      let payload: unknown;
      try {
        payload = JSON.parse(raw.toString('utf8'));
      } catch {
        return false;
      }
      return within(t, 300) && same(v1, hexOf(secret, t, String(payload)));
    },
  },
  // A receiver whose tolerance came from a config default of 3600 s (an hour) instead of 300.
  {
    does: 'is a receiver verifying the signature in constant time but with a tolerance of 3600 s from a config default',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return within(t, 3_600) && same(v1, hexOf(secret, t, raw));
    },
  },
];
