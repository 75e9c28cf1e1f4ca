import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

const sign = (key: string, t: string, raw: Buffer | string) =>
  createHmac('sha256', key).update(`${t}.`).update(raw).digest('hex');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
/** t and every v1 of a header `t=…,v1=…[,v1=…]` (several signatures during a key rotation, Stripe-style). */
const parts = (header: string | undefined) => {
  const pairs = (header ?? '').split(',').map((p) => p.trim().split('='));
  return {
    t: pairs.find(([k]) => k === 't')?.[1] ?? '',
    v1s: pairs.filter(([k]) => k === 'v1').map(([, v]) => v ?? ''),
  };
};
export const signedBy = (raw: Buffer, header: string | undefined, secret: string) => {
  const { t, v1s } = parts(header);
  return /^\d+$/.test(t) && v1s.some((v) => same(v, sign(secret, t, raw)));
};
export const ageS = (t: string, nowS: number) => nowS - Number(parts(`t=${t}`).t);

/**
 * Round 8 receivers, at the window's bounds. "The receiver compares in constant time and rejects the
 * delivery when the difference between t and the current time exceeds 300 seconds."
 */
export const RECEIVERS_8: ReceiverKind[] = [
  // A margin for its own clock: a 298 s window on a host 1 s slow still refuses both 301 s cases (300 s
  // and 302 s off on its clock), and it accepts any of several v1 signatures.
  {
    does: 'runs 1 s slow and keeps a 298 s window as a margin for it, accepting any of several v1 signatures in the header',
    passes: true,
    verify: (raw, header, secret) => {
      const { t } = parts(header);
      return Math.abs(ageS(t, Date.now() / 1000 - 1)) <= 298 && signedBy(raw, header, secret);
    },
  },
  // Two seconds slow with the full 300 s window: a delivery signed 301 s ago is 299 s old on its clock.
  {
    does: 'runs on a host 2 s slow (no NTP) with the full 300 s window, so a delivery 301 s old reads 299 s old',
    passes: false,
    verify: (raw, header, secret) => {
      const { t } = parts(header);
      return Math.abs(ageS(t, Date.now() / 1000 - 2)) <= 300 && signedBy(raw, header, secret);
    },
  },
  // A window written in minutes: the age rounded to whole minutes must be at most 5, so 301 s (5.02
  // minutes) passes for five.
  {
    does: 'checks the window in whole minutes (Math.round(age / 60) <= 5), so 301 s old or ahead counts as five minutes',
    passes: false,
    verify: (raw, header, secret) => {
      const { t } = parts(header);
      return Math.round(Math.abs(ageS(t, Date.now() / 1000)) / 60) <= 5 && signedBy(raw, header, secret);
    },
  },
  // Milliseconds on both sides, done right: t × 1000 against Date.now(), a 300 000 ms window.
  {
    does: 'compares in milliseconds (t·1000 against Date.now(), window 300 000 ms) and verifies every v1 in constant time',
    passes: true,
    verify: (raw, header, secret) => {
      const { t } = parts(header);
      return Math.abs(Date.now() - Number(t) * 1000) <= 300_000 && signedBy(raw, header, secret);
    },
  },
];
