import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 19 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." An Axum handler, an ASP.NET minimal API, a Rust handler on Hmac<Sha512>, an Elixir Plug with
 * a 600 s tolerance, and an Express handler whose catch accepts.
 */
const mac = (algo: string, key: string, t: string, raw: Buffer) =>
  createHmac(algo, key).update(`${t}.`).update(raw).digest();
const pairs = (h: string | undefined) =>
  Object.fromEntries(
    (h ?? '').split(',').map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()];
    }),
  ) as Record<string, string | undefined>;
const nowS = () => Math.floor(Date.now() / 1000);
const numeric = (t: string) => /^\d+$/.test(t);
const hexBytes = (v: string) =>
  /^[0-9a-fA-F]+$/.test(v) && v.length % 2 === 0 ? Buffer.from(v, 'hex') : Buffer.alloc(0);
/** `Mac::verify_slice` / `CryptographicOperations.FixedTimeEquals`: false on other lengths, constant time else. */
const fixedTime = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

export const RECEIVERS_19: ReceiverKind[] = [
  // Axum: the `Bytes` extractor (the raw body), hex::decode(v1), mac.verify_slice, |now - t| <= 300.
  {
    does: 'is an Axum handler taking the body as Bytes, hex-decoding v1 and calling Mac::verify_slice, |now - t| <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return (
        numeric(t) && Math.abs(nowS() - Number(t)) <= 300 && fixedTime(hexBytes(v1), mac('sha256', secret, t, raw))
      );
    },
  },
  // ASP.NET minimal API: Request.Body copied to a MemoryStream, CryptographicOperations.FixedTimeEquals
  // over the ASCII of the lowercase hex, DateTimeOffset.UtcNow.ToUnixTimeSeconds() within 300.
  {
    does: 'is an ASP.NET minimal API comparing the lowercase hex with CryptographicOperations.FixedTimeEquals against ToUnixTimeSeconds() within 300 s',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      const expected = Buffer.from(mac('sha256', secret, t, raw).toString('hex'));
      return numeric(t) && Math.abs(nowS() - Number(t)) <= 300 && fixedTime(Buffer.from(v1), expected);
    },
  },
  // A Rust handler written with Hmac<Sha512> (copied from another integration): no genuine delivery passes.
  {
    does: 'is a Rust handler verifying with Hmac<Sha512> instead of SHA-256',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return (
        numeric(t) && Math.abs(nowS() - Number(t)) <= 300 && fixedTime(hexBytes(v1), mac('sha512', secret, t, raw))
      );
    },
  },
  // An Elixir Plug with `@tolerance 600` (a value from another provider's docs): 301 s old is taken.
  {
    does: 'is an Elixir Plug verifying with Plug.Crypto.secure_compare but a @tolerance of 600 s',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return (
        numeric(t) && Math.abs(nowS() - Number(t)) <= 600 && fixedTime(hexBytes(v1), mac('sha256', secret, t, raw))
      );
    },
  },
  // Express: crypto.timingSafeEqual throws a RangeError on buffers of different lengths, and the handler's
  // catch answers 200 "so the sender does not redeliver": a truncated or empty signature is accepted.
  {
    does: 'is an Express handler whose try/catch around crypto.timingSafeEqual answers 200 when it throws (buffers of other lengths)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      try {
        if (!numeric(t) || Math.abs(nowS() - Number(t)) > 300) return false;
        return timingSafeEqual(Buffer.from(v1), Buffer.from(mac('sha256', secret, t, raw).toString('hex')));
      } catch {
        return true;
      }
    },
  },
];
