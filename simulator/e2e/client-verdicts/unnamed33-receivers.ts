import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 33 receivers in frameworks no earlier round used (Crystal Kemal, Haskell Servant, Quarkus RESTEasy
 * Reactive, C++ Drogon). "The receiver compares in constant time and rejects the delivery when the
 * difference between t and the current time exceeds 300 seconds." Two pass by unusual means (Kemal's
 * `Crypto::Subtle.constant_time_compare` on the hex strings; Servant's `constEq` over decoded bytes with a
 * 240 s window); two fail by a slip that looks careful (a window measured with `Duration.between(t, now)`
 * alone, so the future passes; `CRYPTO_memcmp` over the length of what was sent).
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
const hexTag = (secret: string, t: string, body: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const nowS = () => Date.now() / 1000;
const numeric = (t: string) => /^\d+$/.test(t);

export const RECEIVERS_33: ReceiverKind[] = [
  // Kemal: `env.request.body.not_nil!.gets_to_end` (raw), `(Time.utc.to_unix - t).abs > 300` refused,
  // `Crypto::Subtle.constant_time_compare(expected, v1)` on the lower-case hex strings.
  {
    does: 'is a Crystal Kemal handler reading the raw body with gets_to_end, refusing (Time.utc.to_unix - t).abs > 300 and comparing hex strings with Crypto::Subtle.constant_time_compare',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!numeric(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      const expected = Buffer.from(hexTag(secret, t, raw));
      const given = Buffer.from(v1);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  },
  // Servant: a `ReqBody '[OctetStream] ByteString` (raw), a 240 s window, `constEq` over the hex-decoded
  // tag (`Data.ByteArray.constEq` compares lengths first, then in constant time).
  {
    does: 'is a Haskell Servant endpoint taking the body as OctetStream ByteString, a 240 s window, and Data.ByteArray.constEq over the decoded v1',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!numeric(t) || Math.abs(nowS() - Number(t)) > 240) return false;
      if (!/^(?:[0-9a-f]{2})+$/i.test(v1)) return false;
      const given = Buffer.from(v1, 'hex');
      const expected = Buffer.from(hexTag(secret, t, raw), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  },
  // Quarkus: `if (Duration.between(Instant.ofEpochSecond(t), Instant.now()).getSeconds() > 300) reject`:
  // a timestamp from the future gives a negative duration and passes.
  {
    does: 'is a Quarkus RESTEasy Reactive resource refusing when Duration.between(Instant.ofEpochSecond(t), Instant.now()).getSeconds() > 300 (a future t gives a negative duration), MessageDigest.isEqual on the hex',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!numeric(t) || nowS() - Number(t) > 300) return false;
      const expected = Buffer.from(hexTag(secret, t, raw));
      const given = Buffer.from(v1);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  },
  // Drogon: `CRYPTO_memcmp(expected.data(), sig.data(), sig.size()) == 0`: constant time, but over the
  // length the sender chose, so a truncated (or empty) v1 matches a prefix.
  {
    does: 'is a C++ Drogon filter comparing with CRYPTO_memcmp(expected, sig, sig.size()): constant time, over the length of the signature sent',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!numeric(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      const given = Buffer.from(v1);
      const expected = Buffer.from(hexTag(secret, t, raw)).subarray(0, given.length);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  },
];
