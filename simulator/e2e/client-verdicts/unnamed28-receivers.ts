import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 28 receivers in frameworks no earlier round used (FastAPI, Go Echo, hapi, AdonisJS). "The receiver
 * compares in constant time and rejects the delivery when the difference between t and the current time
 * exceeds 300 seconds." Two pass by unusual means (a double-HMAC compare, hex decoded to bytes before
 * `hmac.Equal`); two fail by a slip that looks careful (the window checked only when the signature does
 * not match, a compare over the length of what was sent).
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
const mac = (secret: string, t: string, body: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest();
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300;

export const RECEIVERS_28: ReceiverKind[] = [
  // FastAPI reading `await request.body()` and comparing by double HMAC (both sides MACed again under a
  // per-process random key, then compared): whatever leaks in the compare is of values nobody can choose.
  {
    does: 'is a FastAPI receiver comparing by double HMAC under a per-process random key, 300 s window',
    passes: true,
    verify: (() => {
      const blind = randomBytes(32);
      const again = (s: string) => createHmac('sha256', blind).update(s).digest('hex');
      return (raw: Buffer, h: string | undefined, secret: string) => {
        const { t, v1 } = fields(h);
        return fresh(t) && again(v1) === again(mac(secret, t, raw).toString('hex'));
      };
    })(),
  },
  // Go Echo: `hex.DecodeString(v1)` then `hmac.Equal` on the bytes (constant time, lengths compared
  // first); decoding also takes upper-case hex, which the check counts as advisory.
  {
    does: 'is a Go Echo receiver decoding v1 from hex and comparing bytes with hmac.Equal, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!fresh(t) || !/^[0-9a-fA-F]*$/.test(v1) || v1.length % 2 !== 0) return false;
      const given = Buffer.from(v1, 'hex');
      const want = mac(secret, t, raw);
      return given.length === want.length && timingSafeEqual(given, want);
    },
  },
  // hapi: the window is checked in the branch that explains a mismatch ("expired or forged"), so a
  // correctly signed delivery captured six minutes ago is taken before the window is looked at.
  {
    does: 'is a hapi receiver that checks the 300 s window only when the signature does not match (to word its error)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const want = mac(secret, t, raw).toString('hex');
      if (v1.length === want.length && timingSafeEqual(Buffer.from(v1), Buffer.from(want))) return true;
      if (!fresh(t)) return false; // "expired"
      return false; // "forged"
    },
  },
  // AdonisJS helper that avoids timingSafeEqual's length throw by cutting the expected signature to the
  // length sent: a truncated (or empty) v1 matches its own prefix.
  {
    does: 'is an AdonisJS receiver comparing v1 in constant time with the expected signature cut to the length sent',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      // Longer than the signature would make timingSafeEqual throw: refused first.
      if (!fresh(t) || Buffer.byteLength(v1) > 64) return false;
      const want = Buffer.from(mac(secret, t, raw).toString('hex')).subarray(0, Buffer.byteLength(v1));
      return timingSafeEqual(Buffer.from(v1), want);
    },
  },
];
