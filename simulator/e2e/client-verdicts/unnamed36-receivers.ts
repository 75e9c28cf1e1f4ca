import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 36 receivers in frameworks no earlier round used (Java Ratpack, Scala Play, Pharo Teapot, .NET
 * ServiceStack). "The receiver compares in constant time and rejects the delivery when the difference
 * between t and the current time exceeds 300 seconds." Two pass (Ratpack on the raw bytes with
 * `MessageDigest.isEqual` and exactly 300 s; Play on `parse.raw` with a 200 s window over the decoded tag);
 * two fail by a slip that looks careful (Teapot measuring `t` against the event's `createdAt`, so a captured
 * delivery sent again whole is on time; ServiceStack caching signatures it verified and skipping the HMAC
 * for one seen before).
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
const hexTag = (secret: string, t: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const skewS = (t: string, nowS: number) => (/^\d+$/.test(t) ? Math.abs(nowS - Number(t)) : Number.POSITIVE_INFINITY);
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const createdAtS = (raw: Buffer) => {
  try {
    return Date.parse((JSON.parse(raw.toString('utf8')) as { createdAt?: string }).createdAt ?? '') / 1000;
  } catch {
    return Number.NaN;
  }
};

/** ServiceStack's verified-signature cache: one per receiver (the suite starts each receiver once). */
const verified = new Set<string>();

export const RECEIVERS_36: ReceiverKind[] = [
  {
    does: 'is a Java Ratpack handler reading request.getBody() bytes, refusing abs(epochSecond - t) > 300 and comparing with MessageDigest.isEqual',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return skewS(t, Date.now() / 1000) <= 300 && sameText(hexTag(secret, t, raw), v1);
    },
  },
  {
    does: 'is a Scala Play action on parse.raw with a 200 s window, comparing the hex-decoded v1 with MessageDigest.isEqual',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (skewS(t, Date.now() / 1000) > 200 || !/^(?:[0-9a-f]{2})+$/i.test(v1)) return false;
      const given = Buffer.from(v1, 'hex');
      const expected = Buffer.from(hexTag(secret, t, raw), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  },
  // Teapot: the window is measured between t and the event's createdAt (the handler had no clock at hand
  // in its tests): a delivery captured and sent again whole is "on time".
  {
    does: 'is a Pharo Teapot route that compares in constant time but measures the 300 s window between t and the event’s createdAt, not its clock',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return skewS(t, createdAtS(raw)) <= 300 && sameText(hexTag(secret, t, raw), v1);
    },
  },
  // ServiceStack: a MemoryCacheClient of signatures already verified (meant to save the HMAC on retried
  // deliveries) answers 204 for a known v1 whatever body it came with.
  {
    does: 'is a .NET ServiceStack request filter that caches each verified v1 in a MemoryCacheClient and, for a v1 seen before, skips the HMAC (meant for retried deliveries)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (skewS(t, Date.now() / 1000) > 300) return false;
      if (verified.has(v1)) return true;
      const ok = sameText(hexTag(secret, t, raw), v1);
      if (ok) verified.add(v1);
      return ok;
    },
  },
];
