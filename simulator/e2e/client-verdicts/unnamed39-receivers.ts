import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 39 receivers in frameworks no earlier round used (Fastly Compute, Rust Salvo, Haskell IHP, Go
 * Buffalo). "The receiver compares in constant time and rejects the delivery when the difference between t
 * and the current time exceeds 300 seconds." Two pass (Fastly reading `req.arrayBuffer()` and comparing in
 * constant time; Salvo trying the current and a real previous secret during a rotation); two fail by a slip
 * that looks careful (IHP's one-sided `now - t <= 300`, which takes any future `t`; a Buffalo middleware that
 * lets a delivery without the signature header through "for health checks").
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
const age = (t: string) => (/^\d+$/.test(t) ? Date.now() / 1000 - Number(t) : Number.NaN);
const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The secret a Salvo receiver kept from before the rotation: a real old key, never empty. */
const PREVIOUS_SECRET = 'whsec_previous_3f9c1a7e5b2d4c6e';

export const RECEIVERS_39: ReceiverKind[] = [
  {
    does: 'is a Fastly Compute handler reading await req.arrayBuffer(), refusing |now - t| > 300 and comparing the hex in constant time',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return Math.abs(age(t)) <= 300 && equal(tag(secret, t, raw), v1);
    },
  },
  // A rotation: both keys are real, so the empty-key case finds nothing to match.
  {
    does: 'is a Rust Salvo handler trying the current and the previous (real) secret during a rotation, each in constant time, with a 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return Math.abs(age(t)) <= 300 && [secret, PREVIOUS_SECRET].some((s) => equal(tag(s, t, raw), v1));
    },
  },
  // IHP: `when (now - t > 300) reject`: a timestamp from the future is never too old.
  {
    does: 'is a Haskell IHP action rejecting when now - t > 300 (one-sided) and comparing with constEq',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return age(t) <= 300 && equal(tag(secret, t, raw), v1);
    },
  },
  // Buffalo: the middleware verifies only when the header is there (load balancer health checks have none).
  {
    does: 'is a Go Buffalo middleware verifying with hmac.Equal and a 300 s window only when NCS-Signature is present, letting header-less requests through for health checks',
    passes: false,
    verify: (raw, h, secret) => {
      if (h === undefined) return true;
      const { t, v1 } = fields(h);
      return Math.abs(age(t)) <= 300 && equal(tag(secret, t, raw), v1);
    },
  },
];
