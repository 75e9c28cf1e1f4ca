import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 16 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." Receivers on platforms that hand them the body in another shape first rebuild it.
 */
const mac = (key: string, t: string, raw: Buffer | string) => createHmac('sha256', key).update(`${t}.`).update(raw);
const pairs = (h: string | undefined) =>
  Object.fromEntries(
    (h ?? '').split(',').map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()];
    }),
  ) as Record<string, string | undefined>;
const nowS = () => Date.now() / 1000;
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
/** The rule with `now` as the receiver's idea of the current time (seconds) and `inWindow` its window test. */
const check = (
  body: Buffer | string,
  h: string | undefined,
  secret: string,
  inWindow: (t: number) => boolean = (t) => Math.abs(nowS() - t) <= 300,
) => {
  const { t = '', v1 = '' } = pairs(h);
  return /^\d+$/.test(t) && inWindow(Number(t)) && sameText(v1, mac(secret, t, body).digest('hex'));
};
/** The event a Lambda function URL hands its handler: a JSON body base64-encoded when the platform chose to. */
const functionUrlEvent = (raw: Buffer) => ({ body: raw.toString('base64'), isBase64Encoded: true });

export const RECEIVERS_16: ReceiverKind[] = [
  // A Lambda function URL may hand the body base64-encoded (isBase64Encoded: true); the handler decodes
  // it to the bytes sent and verifies those.
  {
    does: 'is a Lambda function URL handler decoding event.body from base64 when isBase64Encoded, then verifying the bytes sent, constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const event = functionUrlEvent(raw);
      const body = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
      return check(body, h, secret);
    },
  },
  // The same handler without the decode: the HMAC covers the base64 text, not "the unchanged raw request
  // body", so every genuine delivery is refused.
  {
    does: 'is a Lambda function URL handler computing the HMAC over event.body as given (the base64 text), refusing every genuine delivery',
    passes: false,
    verify: (raw, h, secret) => check(functionUrlEvent(raw).body, h, secret),
  },
  // A Cloudflare Worker: the hex decoded to 32 bytes, then crypto.subtle.verify("HMAC", ...) (a
  // constant-time compare of the MACs), |Date.now()/1000 - t| <= 300.
  {
    does: 'is a Cloudflare Worker decoding v1 from hex to bytes and calling crypto.subtle.verify("HMAC"), window |now - t| <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      if (!/^\d+$/.test(t) || Math.abs(nowS() - Number(t)) > 300 || !/^[0-9a-fA-F]{64}$/.test(v1)) return false;
      return timingSafeEqual(Buffer.from(v1, 'hex'), mac(secret, t, raw).digest());
    },
  },
  // A PowerShell Azure Function testing `([DateTimeOffset]::UtcNow.ToUnixTimeSeconds() - $t) -gt 300`
  // only: a delivery dated 301 s ahead gives a negative difference and is taken.
  {
    does: 'is a PowerShell Azure Function refusing only when now - t > 300 (no absolute value), so a delivery dated 301 s ahead is taken',
    passes: false,
    verify: (raw, h, secret) => check(raw, h, secret, (t) => nowS() - t <= 300),
  },
  // A .NET receiver taking `new DateTimeOffset(DateTime.Now).ToUnixTimeSeconds()` with DateTime.Now
  // read as UTC (DateTime.SpecifyKind(DateTime.Now, DateTimeKind.Utc)) on a host at UTC+1: its clock is an
  // hour ahead, so every genuine delivery is an hour old and refused.
  {
    does: 'is a .NET receiver reading DateTime.Now as UTC on a host at UTC+1 (an hour ahead), refusing every genuine delivery as stale',
    passes: false,
    verify: (raw, h, secret) => check(raw, h, secret, (t) => Math.abs(nowS() + 3_600 - t) <= 300),
  },
  // Nim Jester: the hex compared with a constant-time loop over equal lengths, |epochTime() - t| <= 300,
  // then the event queued and the delivery acknowledged.
  {
    does: 'is a Nim Jester handler comparing the hex in a constant-time loop, |epochTime() - t| <= 300, then queueing the event',
    passes: true,
    verify: (raw, h, secret) => check(raw, h, secret),
  },
];
