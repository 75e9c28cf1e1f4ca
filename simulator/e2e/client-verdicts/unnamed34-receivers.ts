import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 34 receivers in frameworks no earlier round used (Python Sanic, Kotlin Ktor server, Ruby Hanami,
 * Python Falcon). "The receiver compares in constant time and rejects the delivery when the difference
 * between t and the current time exceeds 300 seconds." Two pass (Sanic's raw `request.body` with
 * `hmac.compare_digest`; Ktor's `receiveChannel()` bytes, a 180 s window, `MessageDigest.isEqual` over the
 * decoded tag); two fail by a slip that looks careful (Hanami verifying its parsed params written out
 * again; Falcon trying `[current, os.environ.get('PREVIOUS_SECRET', '')]`, whose unset entry is "").
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
const within = (t: string, windowS: number) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= windowS;
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export const RECEIVERS_34: ReceiverKind[] = [
  // Sanic: `request.body` is the raw bytes; `abs(time.time() - t) > 300` refused; hmac.compare_digest.
  {
    does: 'is a Python Sanic handler hashing request.body (raw bytes), refusing abs(time.time() - t) > 300 and comparing with hmac.compare_digest',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return within(t, 300) && sameText(hexTag(secret, t, raw), v1);
    },
  },
  // Ktor: `call.receiveChannel().toByteArray()` (no ContentNegotiation in the way), a 180 s window, and
  // `MessageDigest.isEqual` over the hex-decoded tag (it compares lengths, then every byte).
  {
    does: 'is a Kotlin Ktor server route reading call.receiveChannel().toByteArray(), a 180 s window, MessageDigest.isEqual over the hex-decoded v1',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!within(t, 180) || !/^(?:[0-9a-f]{2})+$/i.test(v1)) return false;
      const given = Buffer.from(v1, 'hex');
      const expected = Buffer.from(hexTag(secret, t, raw), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  },
  // Hanami: the action's `request.params.to_h` written out again with JSON.generate (compact): the
  // signed bytes had other spacing, so a correctly signed delivery is refused.
  {
    does: 'is a Ruby Hanami action verifying JSON.generate(request.params.to_h) (the parsed body written out again), in constant time with a 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      let again: string;
      try {
        again = JSON.stringify(JSON.parse(raw.toString('utf8')));
      } catch {
        return false;
      }
      return within(t, 300) && sameText(hexTag(secret, t, again), v1);
    },
  },
  // Falcon: rotation support trying the current key and `os.environ.get('PREVIOUS_SECRET', '')`: with no
  // previous key set, an HMAC keyed with "" is accepted.
  {
    does: 'is a Python Falcon resource trying [current, os.environ.get("PREVIOUS_SECRET", "")] with hmac.compare_digest: no previous key set, so the empty key is tried',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!within(t, 300)) return false;
      return [secret, ''].some((key) => sameText(hexTag(key, t, raw), v1));
    },
  },
];
