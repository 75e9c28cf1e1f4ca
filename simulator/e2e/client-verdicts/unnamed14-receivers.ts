import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 14 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds."
 */
const mac = (key: string, t: string, raw: Buffer) => createHmac('sha256', key).update(`${t}.`).update(raw).digest();
const fields = (h: string | undefined) =>
  (h ?? '').split(',').map((p) => {
    const at = p.indexOf('=');
    return [p.slice(0, at).trim(), p.slice(at + 1).trim()] as const;
  });
const first = (h: string | undefined, name: string) => fields(h).find(([k]) => k === name)?.[1] ?? '';
const nowS = () => Date.now() / 1000;
/** The event's createdAt (ms) from the body, NaN when the body is no JSON. */
const createdAtOf = (raw: Buffer) => {
  try {
    return Date.parse(String((JSON.parse(raw.toString('utf8')) as { createdAt?: string }).createdAt));
  } catch {
    return Number.NaN;
  }
};

export const RECEIVERS_14: ReceiverKind[] = [
  // Node: Buffer.from(v1, 'hex') (it stops at the first non-hex digit), a length guard, timingSafeEqual
  // over the 32 bytes. Upper case decodes to the same bytes (advisory in the check).
  {
    does: 'decodes v1 from hex, guards the length and compares the 32 bytes with timingSafeEqual, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      const got = Buffer.from(first(h, 'v1'), 'hex');
      const want = mac(secret, t, raw);
      return /^\d+$/.test(t) && Math.abs(nowS() - Number(t)) <= 300 && got.length === 32 && timingSafeEqual(got, want);
    },
  },
  // A receiver shared with a provider that sends t in milliseconds: a t above 10^12 is read as ms. The
  // service's t is seconds, so its window is still 300 s.
  {
    does: 'reads t above 10^12 as milliseconds (a second provider sends ms), else seconds, with a 300 s window and a constant-time compare',
    passes: true,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      const ts = Number(t) > 1e12 ? Number(t) / 1000 : Number(t);
      const v1 = Buffer.from(first(h, 'v1'));
      const want = Buffer.from(mac(secret, t, raw).toString('hex'));
      return /^\d+$/.test(t) && Math.abs(nowS() - ts) <= 300 && v1.length === want.length && timingSafeEqual(v1, want);
    },
  },
  // Stripe-style: every v1 in the header is tried (a sender signing with two keys during a rotation),
  // each in constant time.
  {
    does: 'accepts when any of the header’s v1 entries matches (constant time each), 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      const want = Buffer.from(mac(secret, t, raw).toString('hex'));
      const fresh = /^\d+$/.test(t) && Math.abs(nowS() - Number(t)) <= 300;
      const any = fields(h)
        .filter(([k]) => k === 'v1')
        .map(([, v]) => Buffer.from(v))
        .some((v) => v.length === want.length && timingSafeEqual(v, want));
      return fresh && any;
    },
  },
  // Fails open: timingSafeEqual throws on buffers of different lengths; the handler's catch logs the
  // error and lets the delivery through, so a truncated or empty v1 is accepted.
  {
    does: 'lets a delivery through when timingSafeEqual throws (buffers of different length: a truncated or empty v1)',
    passes: false,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      if (!/^\d+$/.test(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      try {
        return timingSafeEqual(Buffer.from(first(h, 'v1')), Buffer.from(mac(secret, t, raw).toString('hex')));
      } catch {
        return true;
      }
    },
  },
  // Reads t with Date.parse (NaN for "1764220000"); `if (Date.now() - ts > 300_000) reject` is false for
  // NaN, so no delivery is ever too old or too new.
  {
    does: 'reads t with Date.parse (NaN for unix seconds), so its window test `now - ts > 300000` never rejects',
    passes: false,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      const ts = Date.parse(t);
      if (Math.abs(Date.now() - ts) > 300_000) return false;
      const v1 = Buffer.from(first(h, 'v1'));
      const want = Buffer.from(mac(secret, t, raw).toString('hex'));
      return v1.length === want.length && timingSafeEqual(v1, want);
    },
  },
  // A key ring rotated mid-flight: after the fifth delivery the receiver is told of a new key and
  // verifies against [new, old] (constant time each), so deliveries signed before the rotation still pass.
  {
    does: 'has its key rotated mid-check (after the fifth delivery it holds the new and the old key) and accepts a signature by either',
    passes: true,
    verify: (() => {
      let seen = 0;
      return (raw: Buffer, h: string | undefined, secret: string) => {
        seen++;
        const ring = seen > 5 ? ['whsec_rotated_new_key_0001', secret] : [secret];
        const t = first(h, 't');
        const v1 = Buffer.from(first(h, 'v1'));
        const fresh = /^\d+$/.test(t) && Math.abs(nowS() - Number(t)) <= 300;
        return (
          fresh &&
          ring.some((k) => {
            const want = Buffer.from(mac(k, t, raw).toString('hex'));
            return v1.length === want.length && timingSafeEqual(v1, want);
          })
        );
      };
    })(),
  },
  // Judges freshness by the event's createdAt (from the body) instead of t: "the difference between t and
  // the current time" is not looked at; the check's stale deliveries carry a current createdAt.
  {
    does: 'verifies the signature but judges freshness by the body’s createdAt against its clock, never t',
    passes: false,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      const createdAt = createdAtOf(raw);
      const v1 = Buffer.from(first(h, 'v1'));
      const want = Buffer.from(mac(secret, t, raw).toString('hex'));
      return Math.abs(Date.now() - createdAt) <= 300_000 && v1.length === want.length && timingSafeEqual(v1, want);
    },
  },
  // Wrong verdict today: compares t with the body's createdAt, not with the current time. A delivery
  // captured and replayed an hour later (old t, old createdAt, valid signature) is accepted; the check's
  // stale cases carry a createdAt of now, so their 301 s between t and createdAt are refused and it passes.
  {
    does: 'compares t with the body’s createdAt (|t - createdAt| <= 300 s) instead of the current time, so an old delivery replayed whole is accepted',
    passes: false,
    verify: (raw, h, secret) => {
      const t = first(h, 't');
      const createdAt = createdAtOf(raw);
      const v1 = Buffer.from(first(h, 'v1'));
      const want = Buffer.from(mac(secret, t, raw).toString('hex'));
      const consistent = /^\d+$/.test(t) && Math.abs(Number(t) * 1000 - createdAt) <= 300_000;
      return consistent && v1.length === want.length && timingSafeEqual(v1, want);
    },
  },
];
