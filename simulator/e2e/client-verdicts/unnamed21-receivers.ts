import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 21 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." A Koa route on koa-bodyparser's rawBody, an Actix-web handler with ring::hmac::verify, a Vercel
 * route handler on `await req.text()`; a receiver built on a Standard Webhooks library (signing
 * `<id>.<t>.<body>`), a .NET one keying with UTF-16 bytes, one hashing `key + t.body` with plain SHA-256.
 */
const pairs = (h: string | undefined) =>
  Object.fromEntries(
    (h ?? '').split(',').map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()];
    }),
  ) as Record<string, string | undefined>;
const within = (t: string) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300;
const hexBytes = (v: string) => (/^[0-9a-f]+$/.test(v) && v.length % 2 === 0 ? Buffer.from(v, 'hex') : Buffer.alloc(0));
const equal = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
const hmacOf = (key: Buffer | string, text: Buffer | string) => createHmac('sha256', key).update(text).digest();

export const RECEIVERS_21: ReceiverKind[] = [
  // Koa: koa-bodyparser keeps ctx.request.rawBody (the UTF-8 text of the body); timingSafeEqual after a
  // length check, 300 s window.
  {
    does: 'is a Koa route verifying ctx.request.rawBody from koa-bodyparser, length check then timingSafeEqual, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      const rawBody = raw.toString('utf8');
      const expected = Buffer.from(hmacOf(secret, `${t}.${rawBody}`).toString('hex'));
      const given = Buffer.from(v1);
      return within(t) && given.length === expected.length && timingSafeEqual(given, expected);
    },
  },
  // Actix-web: `body: web::Bytes`, `ring::hmac::verify(&key, format!("{t}.").as_bytes() ++ body, &hex::decode(v1)?)`
  // (constant time), `(now - t).abs() <= 300`.
  {
    does: 'is an Actix-web handler on web::Bytes with ring::hmac::verify over the hex-decoded v1, |now - t| <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return within(t) && equal(hexBytes(v1), hmacOf(secret, Buffer.concat([Buffer.from(`${t}.`), raw])));
    },
  },
  // Vercel: an App Router route handler reads `await req.text()` and checks with WebCrypto's
  // `crypto.subtle.verify('HMAC', ...)` (constant time) before JSON.parse.
  {
    does: 'is a Vercel route handler verifying await req.text() with crypto.subtle.verify("HMAC") before JSON.parse, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      const text = new TextDecoder().decode(raw);
      return within(t) && equal(hexBytes(v1), hmacOf(secret, `${t}.${text}`));
    },
  },
  // A Standard Webhooks library used as is: it signs `<msg id>.<t>.<body>` (the delivery id first), so no
  // genuine delivery of this interface verifies.
  {
    does: 'is a receiver on a Standard Webhooks library used as is, signing "<delivery id>.<t>.<body>"',
    passes: false,
    verify: (raw, h, secret, deliveryId) => {
      const { t = '', v1 = '' } = pairs(h);
      return within(t) && equal(hexBytes(v1), hmacOf(secret, Buffer.concat([Buffer.from(`${deliveryId}.${t}.`), raw])));
    },
  },
  // .NET: `new HMACSHA256(Encoding.Unicode.GetBytes(secret))`: the key as UTF-16LE bytes, not the secret's.
  {
    does: 'is an ASP.NET Core minimal API keying HMACSHA256 with Encoding.Unicode.GetBytes(secret) (UTF-16) instead of UTF-8',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return (
        within(t) &&
        equal(hexBytes(v1), hmacOf(Buffer.from(secret, 'utf16le'), Buffer.concat([Buffer.from(`${t}.`), raw])))
      );
    },
  },
  // A "keyed hash" by hand: sha256(secret + t + "." + body), no HMAC; compared in constant time.
  {
    does: 'is a PHP receiver computing hash("sha256", $secret . $t . "." . $body) (a plain hash, no HMAC) with hash_equals',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      const digest = createHash('sha256').update(`${secret}${t}.`).update(raw).digest();
      return within(t) && equal(hexBytes(v1), digest);
    },
  },
];
