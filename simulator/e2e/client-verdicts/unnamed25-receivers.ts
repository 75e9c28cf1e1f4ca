import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 25 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." A Dart shelf handler, an Elixir Plug with Plug.Crypto.secure_compare, a Ktor handler reading the
 * channel; one tolerating truncated signatures, one skipping the window for event ids it has not seen.
 */
const fields = (h: string | undefined) => {
  const out: Record<string, string> = {};
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim().toLowerCase()] = part.slice(at + 1).trim();
  }
  return { t: out.t ?? '', v1: out.v1 ?? '' };
};
const age = (t: string) => (/^\d+$/.test(t) ? Date.now() / 1000 - Number(t) : Number.NaN);
const hexOf = (secret: string, t: string, raw: Buffer) =>
  createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), raw]))
    .digest('hex');
const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

export const RECEIVERS_25: ReceiverKind[] = [
  // Dart shelf: `request.read()` collected to bytes, `Hmac(sha256, key).convert([...t, 0x2e, ...bytes])`,
  // a constant-time loop over the code units, `(now - t).abs() > 300` rejected.
  {
    does: 'is a Dart shelf handler hashing the collected request bytes, a constant-time loop over the hex, |now - t| > 300 rejected',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const mine = hexOf(secret, t, raw);
      if (v1.length !== mine.length) return false;
      let diff = 0;
      for (let i = 0; i < mine.length; i++) diff |= mine.charCodeAt(i) ^ v1.charCodeAt(i);
      return diff === 0 && Math.abs(age(t)) <= 300;
    },
  },
  // Elixir Plug: the raw body kept by a `body_reader` before Plug.Parsers, `:crypto.mac(:hmac, :sha256, ...)`
  // encoded lowercase, `Plug.Crypto.secure_compare`, a window of 300 s either way.
  {
    does: 'is an Elixir Plug keeping the raw body in a body_reader, Base.encode16(case: :lower), Plug.Crypto.secure_compare, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const a = age(t);
      return a <= 300 && a >= -300 && same(v1, hexOf(secret, t, raw));
    },
  },
  // Ktor: `call.receiveChannel().toByteArray()`, the header looked up case-insensitively (an API gateway in
  // front lower-cases it), `MessageDigest.isEqual`, a 240 s window (stricter).
  {
    does: 'is a Ktor handler behind a gateway that lower-cases headers, reading the channel to bytes, MessageDigest.isEqual, a 240 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h?.toLowerCase());
      return Math.abs(age(t)) <= 240 && same(v1, hexOf(secret, t, raw));
    },
  },
  // A receiver "tolerating proxies that truncate long headers": it accepts when the computed signature starts
  // with the one sent, so a truncated or an empty v1 passes.
  {
    does: 'accepts a delivery when the computed signature starts with the v1 sent (to tolerate truncating proxies), 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return Math.abs(age(t)) <= 300 && hexOf(secret, t, raw).startsWith(v1);
    },
  },
  // A receiver checking the window only for event ids it has seen ("the window is there against replays"),
  // so a stale delivery of a new event is taken.
  {
    does: 'verifies the HMAC in constant time but checks the 300 s window only for delivery ids it has seen before',
    passes: false,
    verify: (() => {
      const seen = new Set<string>();
      return (raw: Buffer, h: string | undefined, secret: string, id: string) => {
        const { t, v1 } = fields(h);
        if (!same(v1, hexOf(secret, t, raw))) return false;
        if (seen.has(id) && Math.abs(age(t)) > 300) return false;
        seen.add(id);
        return true;
      };
    })(),
  },
];
