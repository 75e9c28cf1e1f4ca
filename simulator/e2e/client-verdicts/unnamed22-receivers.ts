import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 22 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." A Flask view on `request.get_data()`, a Phoenix plug with a caching body reader, an Envoy Wasm
 * filter (proxy-wasm Rust) accepting any of several v1 entries; a Rack app reading a body a middleware had
 * already consumed, and a receiver leaving out the dot.
 */
const fields = (h: string | undefined) => {
  const out: { t: string; v1: string[] } = { t: '', v1: [] };
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't') out.t = value;
    if (name === 'v1') out.v1.push(value);
  }
  return out;
};
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300;
const hexOf = (secret: string, text: Buffer) => createHmac('sha256', secret).update(text).digest('hex');
const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const signed = (t: string, raw: Buffer) => Buffer.concat([Buffer.from(`${t}.`), raw]);

export const RECEIVERS_22: ReceiverKind[] = [
  // Flask: `request.get_data()` (the raw bytes, before any JSON parsing), `hmac.compare_digest`,
  // `abs(time.time() - int(t)) <= 300`.
  {
    does: 'is a Flask view verifying request.get_data() with hmac.compare_digest, abs(time.time() - t) <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const [given = ''] = v1;
      return fresh(t) && same(given, hexOf(secret, signed(t, raw)));
    },
  },
  // Phoenix: a `body_reader: {CacheBodyReader, :read_body, []}` keeps the raw body in conn.assigns before
  // Plug.Parsers; `Plug.Crypto.secure_compare`, `abs(System.os_time(:second) - t) <= 300`.
  {
    does: 'is a Phoenix plug verifying the raw body kept by a CacheBodyReader with Plug.Crypto.secure_compare, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const cached = Buffer.from(raw);
      return fresh(t) && v1.length > 0 && same(v1[0] ?? '', hexOf(secret, signed(t, cached)));
    },
  },
  // Envoy Wasm (proxy-wasm Rust) filter buffering the body in on_http_request_body, accepting the delivery
  // when any v1 entry of the header matches (constant-time each), 300 s window; 401 otherwise.
  {
    does: 'is an Envoy Wasm filter (proxy-wasm Rust) buffering the body and accepting any matching v1 entry in constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const mine = hexOf(secret, signed(t, raw));
      return fresh(t) && v1.map((v) => same(v, mine)).some(Boolean);
    },
  },
  // Rack: a JSON-parsing middleware read rack.input without rewinding, so the app's `request.body.read`
  // returns "": every genuine delivery is refused, and one signed over "<t>." would be taken.
  {
    does: 'is a Rack app whose JSON middleware consumed rack.input unrewound, verifying the HMAC over "<t>." and an empty body',
    passes: false,
    verify: (_raw, h, secret) => {
      const { t, v1 } = fields(h);
      return fresh(t) && same(v1[0] ?? '', hexOf(secret, Buffer.from(`${t}.`)));
    },
  },
  // A receiver that signs `<t><body>`, leaving out the dot (a template string written `${t}${body}`).
  {
    does: 'is a receiver computing the HMAC over t and the body joined without the dot, in constant time, 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return fresh(t) && same(v1[0] ?? '', hexOf(secret, Buffer.concat([Buffer.from(t), raw])));
    },
  },
];
