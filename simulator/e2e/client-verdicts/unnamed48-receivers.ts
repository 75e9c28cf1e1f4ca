import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 48 receivers, built on the stacks' webhook helpers: "The signature is an HMAC with SHA-256, keyed with the
 * signing key, over the text <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver
 * compares in constant time and rejects the delivery when the difference between t and the current time exceeds
 * 300 seconds." One passes (an ASP.NET Core endpoint with EnableBuffering, Convert.FromHexString and
 * CryptographicOperations.FixedTimeEquals, |now - t| checked both ways); one fails (stripe-python's
 * `WebhookSignature.verify_header(payload, header, secret, tolerance=300)`, reused because the header has the same
 * `t=…,v1=…` form: it rejects only `t < time.time() - tolerance`, so a `t` 301 s ahead is taken).
 */
const mac = (key: string, t: string, body: Buffer | string) =>
  createHmac('sha256', key).update(`${t}.`).update(body).digest();
const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

export const RECEIVERS_48: ReceiverKind[] = [
  {
    does: 'is an ASP.NET Core minimal API endpoint that calls Request.EnableBuffering(), reads the raw bytes, rejects |DateTimeOffset.UtcNow.ToUnixTimeSeconds() - t| > 300 and compares Convert.FromHexString(v1) with HMACSHA256.HashData by CryptographicOperations.FixedTimeEquals',
    passes: true,
    verify: (raw, h, secret) => {
      const parts = (h ?? '').split(',').map((p) => p.trim());
      const t = parts.find((p) => p.startsWith('t='))?.slice(2) ?? '';
      const v1 = parts.find((p) => p.startsWith('v1='))?.slice(3) ?? '';
      // long.TryParse, then the window both ways; FromHexString throws on odd length or a non-hex digit (400).
      if (!/^-?\d{1,18}$/.test(t) || Math.abs(Math.floor(Date.now() / 1000) - Number(t)) > 300) return false;
      if (v1.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(v1)) return false;
      return sameBytes(Buffer.from(v1, 'hex'), mac(secret, t, raw));
    },
  },
  // "rejects the delivery when the difference between t and the current time exceeds 300 seconds": both ways.
  {
    does: 'is a Flask view reusing stripe-python’s WebhookSignature.verify_header(request.get_data(), header, secret, tolerance=300) for the same t=…,v1=… header: any v1 compared by hmac.compare_digest, then only t < time.time() - 300 refused',
    passes: false,
    verify: (raw, h, secret) => {
      const items = (h ?? '').split(',').map((i) => i.split('='));
      const ts = items.find((i) => i[0] === 't')?.[1];
      const timestamp = Number.parseInt(ts ?? '', 10);
      if (Number.isNaN(timestamp)) return false;
      const signatures = items.filter((i) => i[0] === 'v1').map((i) => i[1] ?? '');
      if (signatures.length === 0) return false;
      // signed_payload = "%d.%s" % (timestamp, payload): the timestamp as the int it parsed.
      const expected = mac(secret, String(timestamp), raw.toString('utf8')).toString('hex');
      if (!signatures.some((s) => sameBytes(Buffer.from(expected, 'utf8'), Buffer.from(s, 'utf8')))) return false;
      return !(timestamp < Date.now() / 1000 - 300);
    },
  },
];
