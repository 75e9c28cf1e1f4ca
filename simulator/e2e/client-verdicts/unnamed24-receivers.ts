import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 24 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." A Mojolicious action, a Symfony RequestParser, a Spring WebFlux handler joining DataBuffers;
 * one signing `<t><body>` without the dot, one allowing an hour of future skew.
 */
const fields = (h: string | undefined) => {
  const out: Record<string, string> = {};
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return { t: out.t ?? '', v1: out.v1 ?? '' };
};
const age = (t: string) => (/^\d+$/.test(t) ? Date.now() / 1000 - Number(t) : Number.NaN);
const hexOf = (secret: string, signed: Buffer) => createHmac('sha256', secret).update(signed).digest('hex');
const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const dotted = (t: string, raw: Buffer) => Buffer.concat([Buffer.from(`${t}.`), raw]);

export const RECEIVERS_24: ReceiverKind[] = [
  // Mojolicious: `$c->req->body` (the bytes as received), `hmac_sha256_hex` from Digest::SHA, Mojo::Util's
  // `secure_compare`, `abs(time - $t) > 300` rejected.
  {
    does: 'is a Mojolicious action verifying $c->req->body with hmac_sha256_hex and secure_compare, abs(time - t) > 300 rejected',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return Math.abs(age(t)) <= 300 && same(v1, hexOf(secret, dotted(t, raw)));
    },
  },
  // Symfony webhook RequestParser: `$request->getContent()`, `hash_hmac('sha256', $t.'.'.$body, $secret)`,
  // `hash_equals`, then the window.
  {
    does: 'is a Symfony webhook RequestParser hashing $t.".".$request->getContent() with hash_equals, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const body = raw.toString('latin1');
      const mine = createHmac('sha256', secret).update(`${t}.${body}`, 'latin1').digest('hex');
      return same(v1, mine) && Math.abs(age(t)) <= 300;
    },
  },
  // Spring WebFlux: `DataBufferUtils.join(exchange.getRequest().getBody())` to one byte array, `Mac` over t,
  // a dot and the bytes, `MessageDigest.isEqual` on the hex bytes, `Duration.between` beyond 300 s rejected.
  {
    does: 'is a Spring WebFlux handler joining the body’s DataBuffers, MessageDigest.isEqual on the hex, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const joined = Buffer.concat([raw.subarray(0, 7), raw.subarray(7)]);
      const { t, v1 } = fields(h);
      return Math.abs(age(t)) <= 300 && same(v1, hexOf(secret, dotted(t, joined)));
    },
  },
  // A receiver signing `<t><body>` without the dot (read "t.body" in the docs as property access): every
  // genuine delivery is refused.
  {
    does: 'is a receiver hashing t and the body without the dot between them, in constant time, 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return Math.abs(age(t)) <= 300 && same(v1, hexOf(secret, Buffer.concat([Buffer.from(t), raw])));
    },
  },
  // A receiver allowing 300 s in the past but an hour in the future ("the sender's clock may run fast").
  {
    does: 'is a receiver rejecting t more than 300 s old but allowing t up to 3600 s ahead for a fast sender clock',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const a = age(t);
      return a <= 300 && a >= -3_600 && same(v1, hexOf(secret, dotted(t, raw)));
    },
  },
];
