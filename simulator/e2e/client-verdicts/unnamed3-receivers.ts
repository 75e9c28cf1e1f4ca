import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind2 } from './unnamed2-receivers.ts';

/**
 * Round 3 of the receivers. The rule they are held to: "The signature is an HMAC with SHA-256, keyed
 * with the signing key, over the text <t>, a dot, and the unchanged raw request body, written as
 * lowercase hex. The receiver compares in constant time and rejects the delivery when the difference
 * between t and the current time exceeds 300 seconds." (Events)
 */

const mac = (secret: string, t: string, raw: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
/** `t=<unix-seconds>,v1=<hex>` as the interface writes it, split the way `split` says. */
const parse = (header: string | undefined, split: string | RegExp = ',') => {
  const parts = Object.fromEntries((header ?? '').split(split).map((p) => p.trim().split('=') as [string, string]));
  return { t: parts.t ?? '', v1: parts.v1 ?? '' };
};
/** Seconds between t and this receiver's clock (`skewS`: how far its clock is off). */
const off = (t: string, skewS = 0) => Math.abs(Date.now() / 1000 + skewS - Number(t));

export const RECEIVERS_3: ReceiverKind2[] = [
  {
    // Decoding the hex to bytes before timingSafeEqual takes upper case too: advisory, never failing.
    does: 'decodes the hex signature to bytes and compares the 32 bytes in constant time',
    passes: true,
    verify: (raw, header, secret) => {
      const { t, v1 } = parse(header);
      if (!/^\d+$/.test(t) || off(t) > 300 || !/^[0-9a-fA-F]{64}$/.test(v1)) return false;
      return timingSafeEqual(Buffer.from(v1, 'hex'), mac(secret, t, raw));
    },
  },
  {
    // Its host's clock runs 4 minutes slow: a delivery signed 301 s ago looks 61 s old to it.
    does: 'verifies correctly against a host clock that runs 4 minutes slow',
    passes: false,
    verify: (raw, header, secret) => {
      const { t, v1 } = parse(header);
      const expected = mac(secret, t, raw).toString('hex');
      return (
        /^\d+$/.test(t) &&
        off(t, -240) <= 300 &&
        v1.length === 64 &&
        timingSafeEqual(Buffer.from(v1), Buffer.from(expected))
      );
    },
  },
  {
    // Written from a sample that showed "t=..., v1=...": split on comma and space, the header the
    // interface describes (no space) never parses, and every delivery is refused, valid ones too.
    does: 'splits the signature header on ", " (comma and space), so it refuses every delivery',
    passes: false,
    verify: (raw, header, secret) => {
      const { t, v1 } = parse(header, ', ');
      const expected = mac(secret, t, raw).toString('hex');
      return (
        /^\d+$/.test(t) && off(t) <= 300 && v1.length === 64 && timingSafeEqual(Buffer.from(v1), Buffer.from(expected))
      );
    },
  },
];
