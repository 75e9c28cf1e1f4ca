import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 41 receivers, careful or careless about time and keys in new ways. "The receiver compares in constant
 * time and rejects the delivery when the difference between t and the current time exceeds 300 seconds."
 * Two pass (a Phoenix plug whose host clock is known to run 120 s slow and which corrects it before a 300 s
 * window; an Axum handler trying the current and the previous signing key, both set, after a rotation); two
 * fail by a slip that looks careful (a Gin handler on a host 120 s slow that does not correct its clock, so
 * it takes a delivery 301 s old; a Rails controller whose window is `t >= now - 300`, one-sided).
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
const tag = (secret: string, t: string, body: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
/** The host's clock, running `skewS` behind the real one. */
const hostNow = (skewS: number) => Date.now() / 1000 - skewS;
const numeric = (t: string) => /^\d+$/.test(t);

/** A previous signing key that was really set (another random secret), as after one rotation. */
const PREVIOUS = `whsec_${randomBytes(24).toString('hex')}`;

export const RECEIVERS_41: ReceiverKind[] = [
  // Phoenix: the node's clock is known (NTP report) to run 120 s slow; the plug adds it back before the window.
  {
    does: 'is a Phoenix plug on a host whose clock runs 120 s slow, adding the known offset back before a 300 s window and a constant-time compare',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const now = hostNow(120) + 120;
      return numeric(t) && Math.abs(now - Number(t)) <= 300 && sameHex(v1, tag(secret, t, raw));
    },
  },
  // Axum: tries the current key, then the previous one (set: a real key of before the rotation).
  {
    does: 'is an Axum handler trying the current and the previous signing key (both set) after a rotation, constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!numeric(t) || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
      return [secret, PREVIOUS].some((key) => sameHex(v1, tag(key, t, raw)));
    },
  },
  // Gin: the same slow host, its clock taken as it is: a delivery 301 s old reads 181 s old.
  {
    does: 'is a Gin handler on a host whose clock runs 120 s slow, taking time.Now() as it is for its 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return numeric(t) && Math.abs(hostNow(120) - Number(t)) <= 300 && sameHex(v1, tag(secret, t, raw));
    },
  },
  // Rails: "reject if older than 5 minutes", written as t >= now - 300: a future t always passes.
  {
    does: 'is a Rails controller rejecting only deliveries older than 300 s (t >= Time.now.to_i - 300), constant-time compare',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return numeric(t) && Number(t) >= Date.now() / 1000 - 300 && sameHex(v1, tag(secret, t, raw));
    },
  },
];
