import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 22 receivers that fail today: wrong verdicts, kept as they should be. Each accepts a delivery it
 * never verified: one whose delivery id, or whose exact signature header, it accepted before. "The signature
 * is an HMAC with SHA-256 ... over the text <t>, a dot, and the unchanged raw request body": a captured
 * delivery's id or header sent again with another body (within the 300 s) is taken. The receiver check
 * signs its `tampered-body` case afresh (its own delivery id and v1), so neither cache is ever hit.
 */
const fields = (h: string | undefined) => {
  const out: { t: string; v1: string[] } = { t: '', v1: [] };
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't') out.t = value;
    if (name === 'v1') out.v1.push(value);
  }
  return out;
};
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300;
const hexOf = (secret: string, text: Buffer) => createHmac('sha256', secret).update(text).digest('hex');
const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const signed = (t: string, raw: Buffer) => Buffer.concat([Buffer.from(`${t}.`), raw]);

export const RECEIVER_PROBES_22: ReceiverKind[] = [
  // A receiver caching the delivery ids it verified, to answer redeliveries cheaply: a delivery under an id
  // it has accepted is taken without checking its signature or body again. Ambiguous, pinned to today's
  // verdict (passes): a receiver that de-duplicates by delivery id before verifying also answers 2xx to a
  // known id, acknowledging without processing (legal: "arrives exactly once" is the receiver's to keep), and
  // a 2xx does not tell acknowledging from processing.
  {
    does: 'is a receiver skipping the HMAC for a delivery id it already verified (a cache for cheap redeliveries)',
    passes: true,
    verify: (() => {
      const verified = new Set<string>();
      return (raw: Buffer, h: string | undefined, secret: string, id: string) => {
        if (id && verified.has(id)) return true;
        const { t, v1 } = fields(h);
        const good = fresh(t) && same(v1[0] ?? '', hexOf(secret, signed(t, raw)));
        if (good) verified.add(id);
        return good;
      };
    })(),
  },
  // A receiver caching the v1 values it verified (an LRU of signatures): a header seen before is taken
  // whatever body comes with it.
  {
    does: 'is a receiver skipping the HMAC for a v1 signature it already verified (an LRU of accepted signatures), window checked',
    passes: false,
    verify: (() => {
      const seen = new Set<string>();
      return (raw: Buffer, h: string | undefined, secret: string) => {
        const { t, v1 } = fields(h);
        const given = v1[0] ?? '';
        if (!fresh(t)) return false;
        if (seen.has(given)) return true;
        const good = same(given, hexOf(secret, signed(t, raw)));
        if (good) seen.add(given);
        return good;
      };
    })(),
  },
];
