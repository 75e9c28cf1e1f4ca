import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 11 receivers: key rotation, header parsing and the signed text. "The signature is an HMAC with
 * SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body,
 * written as lowercase hex. The receiver compares in constant time and rejects the delivery when the
 * difference between t and the current time exceeds 300 seconds."
 */
const hmac = (key: string | Buffer, text: string | Buffer) => createHmac('sha256', key).update(text).digest('hex');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
/** The header's pairs in any order, spaces around them tolerated. */
const pairs = (h: string | undefined) => {
  const m = new Map<string, string[]>();
  for (const part of (h ?? '').split(',')) {
    const [k, v] = part.trim().split('=');
    if (k && v !== undefined) m.set(k.trim(), [...(m.get(k.trim()) ?? []), v.trim()]);
  }
  return { t: m.get('t')?.[0] ?? '', v1s: m.get('v1') ?? [] };
};
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300;
const signedWith = (key: string | Buffer, raw: Buffer, h: string | undefined) => {
  const { t, v1s } = pairs(h);
  const want = hmac(key, Buffer.concat([Buffer.from(`${t}.`), raw]));
  return v1s.some((v) => same(v, want));
};
/** A key the receiver kept from before a rotation: it signs nothing the service sends now. */
const PRE_ROTATION_KEY = 'whsec_pre_rotation_4f1d0c2a9b7e';

/** Sorts an object's keys at every depth (what a "canonicalising" middleware does before verifying). */
const sortedJson = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortedJson)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortedJson((v as Record<string, unknown>)[k])]),
        )
      : v;

export const RECEIVERS_11: ReceiverKind[] = [
  // During a rotation the receiver holds the previous key and the current one and accepts a signature
  // made with either (each compared in constant time), inside the 300 s window.
  {
    does: 'verifies against a key ring (the pre-rotation key and the current one), each in constant time, with the 300 s window',
    passes: true,
    verify: (raw, h, secret) => fresh(pairs(h).t) && [PRE_ROTATION_KEY, secret].some((k) => signedWith(k, raw, h)),
  },
  // A header parser that takes the pairs in any order with spaces around them: the same verdicts.
  {
    does: 'parses the signature header’s pairs in any order with spaces tolerated, then verifies in constant time with the 300 s window',
    passes: true,
    verify: (raw, h, secret) => fresh(pairs(h).t) && signedWith(secret, raw, h),
  },
  // The rotation never reached this receiver: it still verifies with the pre-rotation key only, so it
  // refuses every genuine delivery.
  {
    does: 'still verifies with the pre-rotation key only (the new signing key was never deployed), refusing genuine deliveries',
    passes: false,
    verify: (raw, h) => fresh(pairs(h).t) && signedWith(PRE_ROTATION_KEY, raw, h),
  },
  // The signed text without its dot: `<t><body>`.
  {
    does: 'computes the HMAC over t and the body without the dot between them',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1s } = pairs(h);
      const want = hmac(secret, Buffer.concat([Buffer.from(t), raw]));
      return fresh(t) && v1s.some((v) => same(v, want));
    },
  },
  // `if (fresh || valid)`: a logic slip that accepts a stale delivery with a good signature and a fresh
  // one with a forged signature.
  {
    does: 'accepts a delivery when the timestamp is fresh OR the signature is valid (|| where && was meant)',
    passes: false,
    verify: (raw, h, secret) => fresh(pairs(h).t) || signedWith(secret, raw, h),
  },
  // A Svix habit: the signing key decoded from base64 before keying the HMAC.
  {
    does: 'decodes the signing key from base64 before keying the HMAC (a habit from another provider’s whsec_ keys)',
    passes: false,
    verify: (raw, h, secret) =>
      fresh(pairs(h).t) && signedWith(Buffer.from(secret.replace(/^whsec_/, ''), 'base64'), raw, h),
  },
  // A middleware that canonicalises the JSON (keys sorted) before the handler verifies it.
  {
    does: 'verifies the body re-serialised with its keys sorted by a canonicalising middleware, not the raw bytes',
    passes: false,
    verify: (raw, h, secret) => {
      let again: Buffer;
      try {
        again = Buffer.from(JSON.stringify(sortedJson(JSON.parse(raw.toString('utf8')))));
      } catch {
        return false;
      }
      return fresh(pairs(h).t) && signedWith(secret, again, h);
    },
  },
];
