import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 27 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." Two pass by unusual means (BigInt window arithmetic, a key kept hex-encoded in a vault, a window
 * in milliseconds); four fail by a slip that looks careful (the window's sign, the field name left on t, a
 * window constant in the wrong unit, replay protection by the last t seen instead of the clock).
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
const hexOf = (key: string | Buffer, t: string, body: Buffer) =>
  createHmac('sha256', key).update(`${t}.`).update(body).digest('hex');
const nowS = () => Date.now() / 1000;
const sameLen = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

export const RECEIVERS_27: ReceiverKind[] = [
  // A strict parser: t must be 1 to 10 digits without a leading zero, and the window is taken in BigInt
  // arithmetic (a habit from nanosecond clocks): |now - t| <= 300 exactly as written.
  {
    does: 'parses t strictly (1-10 digits, no leading zero) and takes the window in BigInt seconds, constant time',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^[1-9]\d{0,9}$/.test(t)) return false;
      const diff = BigInt(Math.floor(nowS())) - BigInt(t);
      if (diff > 300n || diff < -300n) return false;
      return sameLen(v1, hexOf(secret, t, raw));
    },
  },
  // The signing key is stored in a vault hex-encoded (the vault takes bytes); the receiver decodes it back
  // to the same bytes before keying the HMAC. The window is computed in milliseconds.
  {
    does: 'keeps the signing key hex-encoded in a vault and decodes it to the same bytes, window computed in milliseconds (300,000 ms)',
    passes: true,
    verify: (raw, h, secret) => {
      const stored = Buffer.from(secret, 'utf8').toString('hex');
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || Math.abs(Date.now() - Number(t) * 1000) > 300_000) return false;
      return sameLen(v1, hexOf(Buffer.from(stored, 'hex'), t, raw));
    },
  },
  // `if (t - now > 300) reject`: the sign slipped, so only timestamps ahead are refused and a delivery
  // captured six minutes ago is taken.
  {
    does: 'checks the window as t - now > 300 without the absolute value (refuses only timestamps ahead)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || Number(t) - nowS() > 300) return false;
      return sameLen(v1, hexOf(secret, t, raw));
    },
  },
  // The header is split at the first comma only and the HMAC is built over the first part as it stands:
  // "t=<t>" with its field name, so the valid delivery is refused.
  {
    does: 'signs over "t=<t>.<body>" (the field name left on t) when it recomputes the signature',
    passes: false,
    verify: (raw, h, secret) => {
      const first = (h ?? '').split(',')[0] ?? '';
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      return sameLen(v1, hexOf(secret, first, raw));
    },
  },
  // The window constant was written in milliseconds (300 * 1000) but compared with seconds: 300,000 s.
  {
    does: 'compares |now - t| in seconds with a window constant written in milliseconds (300 * 1000)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || Math.abs(nowS() - Number(t)) > 300 * 1000) return false;
      return sameLen(v1, hexOf(secret, t, raw));
    },
  },
  // Replay protection by the newest t accepted (monotonic) instead of the clock: an old t is refused, a t
  // six minutes ahead is taken (and then refuses every honest delivery after it).
  {
    does: 'refuses a t older than the newest it accepted minus 300 s instead of checking t against its clock',
    passes: false,
    verify: (() => {
      let newest = 0;
      return (raw: Buffer, h: string | undefined, secret: string) => {
        const { t, v1 } = fields(h);
        if (!/^\d+$/.test(t)) return false;
        const ts = Number(t);
        if (newest === 0) newest = Math.floor(nowS());
        if (newest - ts > 300) return false;
        if (!sameLen(v1, hexOf(secret, t, raw))) return false;
        newest = Math.max(newest, ts);
        return true;
      };
    })(),
  },
];
