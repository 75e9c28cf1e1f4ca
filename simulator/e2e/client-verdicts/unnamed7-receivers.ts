import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

const sign = (key: string, t: string, raw: Buffer | string) =>
  createHmac('sha256', key).update(`${t}.`).update(raw).digest('hex');
/** The header as a strict receiver reads it: exactly t=<seconds>,v1=<64 lowercase hex>. */
const strictHeader = (header: string | undefined) => /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '');
const within = (t: string, nowS: number, windowS = 300) => Math.abs(nowS - Number(t)) <= windowS;
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
/** A host clock 200 s fast (a VM restored from a snapshot, its NTP daemon not yet stepped). */
const SKEW_S = 200;
const fastClockS = () => Date.now() / 1000 + SKEW_S;

/**
 * Round 7 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds
 * 300 seconds."
 */
export const RECEIVERS_7: ReceiverKind[] = [
  // Behind a queue: the edge verifies signature and window, then enqueues the raw delivery and
  // acknowledges; a worker processes it minutes later (what it checks then no longer matters).
  {
    does: 'verifies signature and 300 s window at the edge, then enqueues the delivery for a worker that processes it minutes later',
    passes: true,
    verify: (() => {
      const queue: { raw: Buffer; id: string }[] = [];
      return (raw: Buffer, header: string | undefined, secret: string, id: string) => {
        const m = strictHeader(header);
        if (!m?.[1] || !m[2] || !within(m[1], Date.now() / 1000)) return false;
        if (!same(m[2], sign(secret, m[1], raw))) return false;
        queue.push({ raw, id });
        return true;
      };
    })(),
  },
  // Behind a queue, split wrongly: the edge checks only the signature and acknowledges; the worker
  // checks the window when it dequeues, long after the delivery was accepted.
  {
    does: 'checks only the signature at the edge and acknowledges, leaving the 300 s window to the queue worker that dequeues it later',
    passes: false,
    verify: (raw, header, secret) => {
      const m = strictHeader(header);
      return Boolean(m?.[1] && m[2] && same(m[2], sign(secret, m[1], raw)));
    },
  },
  // AWS Lambda behind API Gateway hands the body base64-encoded (isBase64Encoded); the handler decodes
  // it back to the raw bytes before verifying.
  {
    does: 'is an AWS Lambda behind API Gateway that base64-decodes event.body (isBase64Encoded) back to the raw bytes before verifying',
    passes: true,
    verify: (raw, header, secret) => {
      const eventBody = raw.toString('base64'); // what API Gateway hands the function
      const m = strictHeader(header);
      if (!m?.[1] || !m[2] || !within(m[1], Date.now() / 1000)) return false;
      return same(m[2], sign(secret, m[1], Buffer.from(eventBody, 'base64')));
    },
  },
  // The same Lambda verifying over event.body as it arrives (the base64 text), so no genuine delivery
  // ever verifies.
  {
    does: 'is an AWS Lambda behind API Gateway that verifies over event.body as handed (the base64 text), not the raw bytes',
    passes: false,
    verify: (raw, header, secret) => {
      const eventBody = raw.toString('base64');
      const m = strictHeader(header);
      if (!m?.[1] || !m[2] || !within(m[1], Date.now() / 1000)) return false;
      return same(m[2], sign(secret, m[1], eventBody));
    },
  },
  // A host clock 200 s fast: a delivery signed 301 s ahead is only 101 s ahead of this clock and is
  // accepted ("the current time" is the true time; the receiver's clock is the receiver's concern).
  {
    does: 'runs on a host whose clock is 200 s fast and checks the window against it',
    passes: false,
    verify: (raw, header, secret) => {
      const m = strictHeader(header);
      if (!m?.[1] || !m[2] || !within(m[1], fastClockS())) return false;
      return same(m[2], sign(secret, m[1], raw));
    },
  },
  // The same host, but the receiver corrects its reading with the offset its NTP client reports
  // (chrony's "System time" offset), so the window is checked against the true time.
  {
    does: 'runs on a host whose clock is 200 s fast but corrects it with the offset its NTP client reports before checking the window',
    passes: true,
    verify: (raw, header, secret) => {
      const ntpOffsetS = -SKEW_S;
      const m = strictHeader(header);
      if (!m?.[1] || !m[2] || !within(m[1], fastClockS() + ntpOffsetS)) return false;
      return same(m[2], sign(secret, m[1], raw));
    },
  },
];
