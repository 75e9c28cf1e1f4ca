import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 44 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>,
 * a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in constant time
 * and rejects the delivery when the difference between t and the current time exceeds 300 seconds." Two pass
 * (a clock anchored once at start and moved by `performance.now()`, as a service avoiding wall-clock jumps
 * does; a parser taking the header's fields in any order, comparing decoded bytes after a length check);
 * two fail by a slip that looks careful (a verifier that fails open when `timingSafeEqual` throws on a length
 * mismatch; 5 s of grace "for clock drift" added to the window).
 */
const fields = (h: string | undefined) => {
  const out = { t: '', v1: '' };
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    if (name === 't') out.t = part.slice(at + 1).trim();
    if (name === 'v1' && !out.v1) out.v1 = part.slice(at + 1).trim();
  }
  return out;
};
const mac = (key: string, t: string, body: Buffer) => createHmac('sha256', key).update(`${t}.`).update(body).digest();
const numeric = (t: string) => /^\d+$/.test(t);
const within = (now: number, t: string, windowS: number) => numeric(t) && Math.abs(now - Number(t)) <= windowS;

/** Unix seconds from a wall-clock reading taken once, moved on by the monotonic clock. */
function anchoredClock() {
  const wall = Date.now();
  const mono = performance.now();
  return () => (wall + (performance.now() - mono)) / 1000;
}

function anchored() {
  const now = anchoredClock();
  return (raw: Buffer, h: string | undefined, secret: string) => {
    const { t, v1 } = fields(h);
    const got = Buffer.from(v1, 'utf8');
    const want = Buffer.from(mac(secret, t, raw).toString('hex'), 'utf8');
    return within(now(), t, 300) && got.length === want.length && timingSafeEqual(got, want);
  };
}

export const RECEIVERS_44: ReceiverKind[] = [
  {
    does: 'reads its clock as a wall-clock instant taken once at start plus performance.now(), compares the hex in constant time, 300 s window',
    passes: true,
    verify: anchored(),
  },
  {
    does: 'takes the header’s fields in any order (v1 before t allowed), decodes v1 from hex, checks the length is 32 bytes and compares the bytes in constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h?.split(',').reverse().join(','));
      if (!/^[0-9a-fA-F]{64}$/.test(v1) || !within(Date.now() / 1000, t, 300)) return false;
      const got = Buffer.from(v1, 'hex');
      const want = mac(secret, t, raw);
      return got.length === want.length && timingSafeEqual(got, want);
    },
  },
  // timingSafeEqual throws a RangeError for inputs of different lengths; the catch logs and lets it through.
  {
    does: 'checks the 300 s window, then compares the decoded v1 with timingSafeEqual inside a try whose catch logs the error and accepts (fail-open on a length mismatch)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!within(Date.now() / 1000, t, 300)) return false;
      try {
        return timingSafeEqual(Buffer.from(v1, 'hex'), mac(secret, t, raw));
      } catch {
        return true;
      }
    },
  },
  // "rejects the delivery when the difference ... exceeds 300 seconds": 301 s off must be refused.
  {
    does: 'adds 5 s of grace for clock drift to the window (|now - t| <= 305 s), comparing the hex in constant time',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const got = Buffer.from(v1, 'utf8');
      const want = Buffer.from(mac(secret, t, raw).toString('hex'), 'utf8');
      return within(Date.now() / 1000, t, 305) && got.length === want.length && timingSafeEqual(got, want);
    },
  },
];
