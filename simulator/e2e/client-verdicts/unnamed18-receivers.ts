import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 18 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." A Knative Go service, a Supabase Edge Function, a Shopify app's handler reused, a HAProxy Lua
 * action and a Pipedream workflow step, each written from its platform's usual verification code.
 */
const digest = (key: string | Buffer, t: string, raw: Buffer) =>
  createHmac('sha256', key).update(`${t}.`).update(raw).digest();
const pairs = (h: string | undefined) =>
  Object.fromEntries(
    (h ?? '').split(',').map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()];
    }),
  ) as Record<string, string | undefined>;
const nowS = () => Math.floor(Date.now() / 1000);
const numeric = (t: string) => /^\d+$/.test(t);
/** Go's hmac.Equal / a constant-time compare of two byte strings (false on other lengths). */
const equalBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
const hexBytes = (v: string) => (/^[0-9a-f]{64}$/.test(v) ? Buffer.from(v, 'hex') : Buffer.alloc(0));

export const RECEIVERS_18: ReceiverKind[] = [
  // A Knative Service in Go: io.ReadAll(r.Body), hex.DecodeString(v1) (lowercase only, as the rule writes
  // it), hmac.Equal, and |time.Now().Unix() - t| <= 300.
  {
    does: 'is a Knative Service in Go verifying io.ReadAll(r.Body) with hmac.Equal on the decoded hex, |now - t| <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return numeric(t) && Math.abs(nowS() - Number(t)) <= 300 && equalBytes(hexBytes(v1), digest(secret, t, raw));
    },
  },
  // A Supabase Edge Function (Deno): await req.arrayBuffer(), crypto.subtle.verify('HMAC', ...) over the
  // decoded hex, and a stricter 240 s window.
  {
    does: 'is a Supabase Edge Function verifying await req.arrayBuffer() with crypto.subtle.verify on the decoded hex, a 240 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return numeric(t) && Math.abs(nowS() - Number(t)) <= 240 && equalBytes(hexBytes(v1), digest(secret, t, raw));
    },
  },
  // A handler copied from a Shopify app: the digest compared as base64 (X-Shopify-Hmac-Sha256's encoding),
  // so no genuine delivery is ever accepted.
  {
    does: 'is a Shopify app handler reused as is, comparing the HMAC as base64 (X-Shopify-Hmac-Sha256 style) rather than lowercase hex',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      const expected = Buffer.from(digest(secret, t, raw).toString('base64'));
      return numeric(t) && Math.abs(nowS() - Number(t)) <= 300 && equalBytes(Buffer.from(v1), expected);
    },
  },
  // A HAProxy Lua action checking `if core.now().sec - t > 300 then reject`: one-sided, so a timestamp
  // far in the future (a captured delivery signed ahead) is accepted.
  {
    does: 'is a HAProxy Lua action rejecting only core.now().sec - t > 300, so any timestamp in the future is taken',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return numeric(t) && nowS() - Number(t) <= 300 && equalBytes(hexBytes(v1), digest(secret, t, raw));
    },
  },
  // A Pipedream step keyed with the signing key decoded as base64 (as its Stripe-style helper does for
  // whsec_ secrets) instead of the key's text: every genuine delivery is refused.
  {
    does: 'is a Pipedream workflow step keying the HMAC with the signing key decoded from base64 rather than its text',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return numeric(t) && Math.abs(nowS() - Number(t)) <= 300 && equalBytes(hexBytes(v1), digest(key, t, raw));
    },
  },
];
