import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 13 receivers: PHP, Flask, Go, and three careless ones. "The signature is an HMAC with SHA-256,
 * keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body, written as
 * lowercase hex. The receiver compares in constant time and rejects the delivery when the difference
 * between t and the current time exceeds 300 seconds."
 */
const hmacHex = (key: string, text: Buffer | string) => createHmac('sha256', key).update(text).digest('hex');
const parse = (h: string | undefined) => {
  const m = /^t=(\d+),v1=([0-9A-Za-z]*)$/.exec(h ?? '');
  return { t: m?.[1] ?? '', v1: m?.[2] ?? '' };
};
const signed = (t: string, raw: Buffer) => Buffer.concat([Buffer.from(`${t}.`), raw]);
const nowS = () => Math.floor(Date.now() / 1000);
const equalHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const RECEIVERS_13: ReceiverKind[] = [
  // PHP: hash_equals(hash_hmac('sha256', "$t.$raw", $secret), $v1) && abs(time() - $t) <= 300.
  {
    does: 'is a PHP endpoint with hash_equals(hash_hmac(sha256, "$t.$raw"), $v1) and abs(time() - $t) <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = parse(h);
      return t !== '' && Math.abs(nowS() - Number(t)) <= 300 && equalHex(hmacHex(secret, signed(t, raw)), v1);
    },
  },
  // Flask: request.get_data(as_text=True).encode('utf-8') (a UTF-8 round trip that gives the same bytes
  // for a UTF-8 body) and hmac.compare_digest.
  {
    does: 'is a Flask view verifying request.get_data(as_text=True) encoded back to UTF-8 with hmac.compare_digest and a 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = parse(h);
      const roundTrip = Buffer.from(raw.toString('utf8'), 'utf8');
      return t !== '' && Math.abs(nowS() - Number(t)) <= 300 && equalHex(hmacHex(secret, signed(t, roundTrip)), v1);
    },
  },
  // Go: `uint64(time.Now().Unix()) - uint64(t) <= 300` (a future t wraps around to a huge number and is
  // refused; a past one is bounded as it should be: right by accident), and hmac.Equal on the MAC bytes
  // after hex.DecodeString (a decode error refuses; upper-case hex decodes too, which is advisory).
  {
    does: 'is a Go handler checking uint64(now) - uint64(t) <= 300 (a future t wraps and is refused) and hmac.Equal after hex.DecodeString',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = parse(h);
      if (t === '' || !/^([0-9a-fA-F]{2})*$/.test(v1)) return false;
      const age = (BigInt(nowS()) - BigInt(t) + 2n ** 64n) % 2n ** 64n;
      const got = Buffer.from(v1, 'hex');
      const want = createHmac('sha256', secret).update(signed(t, raw)).digest();
      return age <= 300n && got.length === want.length && timingSafeEqual(got, want);
    },
  },
  // The window in whole minutes: Math.round(|now - t| / 60) <= 5, so 301 s (5.02 min) is "5 minutes".
  {
    does: 'checks the window in whole minutes (Math.round(|now - t| / 60) <= 5), so deliveries 301 s off pass as five minutes',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = parse(h);
      return (
        t !== '' && Math.round(Math.abs(nowS() - Number(t)) / 60) <= 5 && equalHex(hmacHex(secret, signed(t, raw)), v1)
      );
    },
  },
  // The signed text put together the other way round: `${raw}.${t}`: every genuine delivery is refused.
  {
    does: 'computes the HMAC over the raw body, a dot and t (the order reversed), refusing every genuine delivery',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = parse(h);
      const text = Buffer.concat([raw, Buffer.from(`.${t}`)]);
      return t !== '' && Math.abs(nowS() - Number(t)) <= 300 && equalHex(hmacHex(secret, text), v1);
    },
  },
];

/** Django's `request.body.strip()` before verifying: the body is not the unchanged raw body when it ends in whitespace. */
export const TRIMMING_RECEIVER_13: ReceiverKind = {
  does: 'verifies request.body.strip() (Django) instead of the unchanged raw body',
  passes: false,
  verify: (raw, h, secret) => {
    const { t, v1 } = parse(h);
    const trimmed = Buffer.from(raw.toString('utf8').trim(), 'utf8');
    return t !== '' && Math.abs(nowS() - Number(t)) <= 300 && equalHex(hmacHex(secret, signed(t, trimmed)), v1);
  },
};
