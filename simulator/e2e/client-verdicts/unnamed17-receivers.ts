import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 17 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." WordPress, Rails, OpenResty, Express and Django receivers, each written from its platform's usual
 * verification code.
 */
const hex = (key: string, t: string, raw: Buffer | string) =>
  createHmac('sha256', key).update(`${t}.`).update(raw).digest('hex');
const pairs = (h: string | undefined) =>
  Object.fromEntries(
    (h ?? '').split(',').map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()];
    }),
  ) as Record<string, string | undefined>;
const nowS = () => Date.now() / 1000;
/** PHP's hash_equals / Rails' secure_compare: constant time over equal lengths, false otherwise. */
const equalsCt = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const fresh = (t: string, now = nowS()) => /^\d+$/.test(t) && Math.abs(now - Number(t)) <= 300;

export const RECEIVERS_17: ReceiverKind[] = [
  // A WordPress REST route: `$request->get_body()` (the raw body), hash_hmac('sha256', "$t.$body", $key),
  // hash_equals, abs(time() - $t) <= 300.
  {
    does: 'is a WordPress REST route verifying $request->get_body() with hash_hmac and hash_equals, abs(time() - t) <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return fresh(t, Math.floor(nowS())) && equalsCt(v1, hex(secret, t, raw));
    },
  },
  // A Rails controller: request.raw_post, OpenSSL::HMAC.hexdigest, ActiveSupport::SecurityUtils.secure_compare,
  // (Time.now.to_i - t).abs <= 300, then the job enqueued.
  {
    does: 'is a Rails controller verifying request.raw_post with OpenSSL::HMAC.hexdigest and secure_compare, (Time.now.to_i - t).abs <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return fresh(t, Math.floor(nowS())) && equalsCt(v1, hex(secret, t, raw.toString('utf8')));
    },
  },
  // An OpenResty access_by_lua block: ngx.req.read_body(), ngx.req.get_body_data(), resty.hmac, ngx.time()
  // (a cached second), a constant-time loop; refusals close the connection (ngx.exit(444)).
  {
    does: 'is an OpenResty access_by_lua block verifying ngx.req.get_body_data() with resty.hmac against ngx.time(), closing the connection (444) on refusal',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return (fresh(t, Math.floor(nowS())) && equalsCt(v1, hex(secret, t, raw))) || 'drop';
    },
  },
  // An Express handler checking `expected.startsWith(v1)` (meant to tolerate a trailing newline): a
  // signature cut short, or an empty one, is a prefix of the right one and is taken.
  {
    does: 'is an Express handler accepting when the expected hex startsWith(v1), so a truncated or empty signature is taken',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 } = pairs(h);
      return v1 !== undefined && fresh(t) && hex(secret, t, raw).startsWith(v1);
    },
  },
  // A Django view that skips verification when the signature header is absent ("unsigned test deliveries"
  // left on from development), verifying correctly otherwise.
  {
    does: 'is a Django view that verifies correctly but accepts any delivery with no signature header (unsigned test deliveries left on)',
    passes: false,
    verify: (raw, h, secret) => {
      if (h === undefined) return true;
      const { t = '', v1 = '' } = pairs(h);
      return fresh(t) && equalsCt(v1, hex(secret, t, raw));
    },
  },
];
