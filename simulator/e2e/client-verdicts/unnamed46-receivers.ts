import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 46 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>,
 * a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in constant time
 * and rejects the delivery when the difference between t and the current time exceeds 300 seconds." Two pass
 * (Express's `express.json({ verify })` hook checking the raw buffer before the parser runs; Fastify's buffer
 * content-type parser verifying and only then parsing); two fail (a clock read from the delivery's own header,
 * the "request time" its framework fills from `t`; a body verified after JSON.parse and JSON.stringify).
 */
const mac = (key: string, t: string, body: Buffer | string) =>
  createHmac('sha256', key).update(`${t}.`).update(body).digest();
const field = (h: string | undefined, name: string) =>
  (h ?? '')
    .split(',')
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${name}=`))
    ?.slice(name.length + 1) ?? '';
const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
const within = (t: string, nowS: number) => /^\d{1,12}$/.test(t) && Math.abs(nowS - Number(t)) <= 300;

export const RECEIVERS_46: ReceiverKind[] = [
  {
    does: 'verifies in express.json’s verify hook, over the raw buffer before the parser runs, in constant time with a 300 s window on Date.now, then lets the body be parsed',
    passes: true,
    verify: (raw, h, secret) => {
      const t = field(h, 't');
      if (!within(t, Date.now() / 1000)) return false;
      return sameBytes(Buffer.from(field(h, 'v1'), 'hex'), mac(secret, t, raw));
    },
  },
  {
    does: 'registers a Fastify content-type parser with parseAs: "buffer" that verifies the buffer (constant time, 300 s window) and only then calls JSON.parse, refusing a body that is no JSON',
    passes: true,
    verify: (raw, h, secret) => {
      const t = field(h, 't');
      const v1 = field(h, 'v1');
      if (!/^[0-9a-f]{64}$/.test(v1) || !within(t, Math.floor(Date.now() / 1000))) return false;
      if (!sameBytes(Buffer.from(v1, 'hex'), mac(secret, t, raw))) return false;
      try {
        JSON.parse(raw.toString('utf8'));
        return true;
      } catch {
        return false;
      }
    },
  },
  // "the difference between t and the current time": the current time is the receiver's, not the delivery's.
  {
    does: 'takes “now” from the delivery’s own signature header (a middleware that sets the request time from t, “the sender’s clock is authoritative”), so every t is within 300 s of itself',
    passes: false,
    verify: (raw, h, secret) => {
      const t = field(h, 't');
      const requestTime = Number(t);
      return within(t, requestTime) && sameBytes(Buffer.from(field(h, 'v1'), 'hex'), mac(secret, t, raw));
    },
  },
  // "over ... the unchanged raw request body": a body parsed and serialised again is another text.
  {
    does: 'verifies the HMAC over JSON.stringify(req.body) after express.json() has parsed it, in constant time with a 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const t = field(h, 't');
      if (!within(t, Date.now() / 1000)) return false;
      let again: string;
      try {
        again = JSON.stringify(JSON.parse(raw.toString('utf8')));
      } catch {
        return false;
      }
      return sameBytes(Buffer.from(field(h, 'v1'), 'hex'), mac(secret, t, again));
    },
  },
];
