import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 47 receivers, in servers the generators write: "The signature is an HMAC with SHA-256, keyed with the
 * signing key, over the text <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver
 * compares in constant time and rejects the delivery when the difference between t and the current time exceeds
 * 300 seconds." Two pass (an oapi-codegen chi middleware reading the raw body before the strict handler decodes it;
 * a Fern-generated FastAPI server whose dependency verifies `await request.body()` before the model is built); two
 * fail (Go's `time.Since(ts) > 5*time.Minute`, which lets any future `t` through; an NSwag-generated ASP.NET
 * controller that reads Request.Body after [FromBody] binding consumed it, so it signs the empty string).
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
const nowS = () => Math.floor(Date.now() / 1000);

export const RECEIVERS_47: ReceiverKind[] = [
  {
    does: 'is an oapi-codegen strict server behind a chi middleware that io.ReadAll’s the raw body, checks |now - t| <= 300 s and hmac.Equal over hex-decoded bytes, then restores r.Body for the generated decoder',
    passes: true,
    verify: (raw, h, secret) => {
      const t = field(h, 't');
      if (!/^\d{1,12}$/.test(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      return sameBytes(Buffer.from(field(h, 'v1'), 'hex'), mac(secret, t, raw));
    },
  },
  {
    does: 'is a Fern-generated FastAPI server whose Depends() verifier reads await request.body() (cached for the generated pydantic model), compares hexdigests with hmac.compare_digest and abs(time.time() - int(t)) <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const t = field(h, 't');
      const v1 = field(h, 'v1');
      if (!/^\d+$/.test(t) || Math.abs(Date.now() / 1000 - Number.parseInt(t, 10)) > 300) return false;
      const expected = mac(secret, t, raw).toString('hex');
      return sameBytes(Buffer.from(v1, 'utf8'), Buffer.from(expected, 'utf8'));
    },
  },
  // "rejects the delivery when the difference between t and the current time exceeds 300 seconds": both ways.
  {
    does: 'is an oapi-codegen echo middleware rejecting when time.Since(time.Unix(t, 0)) > 5*time.Minute: a t in the future gives a negative duration and passes',
    passes: false,
    verify: (raw, h, secret) => {
      const t = field(h, 't');
      if (!/^\d{1,12}$/.test(t) || nowS() - Number(t) > 300) return false;
      return sameBytes(Buffer.from(field(h, 'v1'), 'hex'), mac(secret, t, raw));
    },
  },
  // "over ... the unchanged raw request body": the stream was consumed by model binding; what is left is empty.
  {
    does: 'is an NSwag-generated ASP.NET Core controller whose action filter reads Request.Body after [FromBody] binding consumed it (no EnableBuffering, no rewind), so it computes the HMAC over t and an empty body',
    passes: false,
    verify: (_raw, h, secret) => {
      const t = field(h, 't');
      if (!/^\d{1,12}$/.test(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      return sameBytes(Buffer.from(field(h, 'v1'), 'hex'), mac(secret, t, ''));
    },
  },
];
