import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 38 receivers in frameworks no earlier round used (Rust Poem, Ruby Roda, a Lambda behind an API Gateway
 * REST mapping template, C++ Crow). "The receiver compares in constant time and rejects the delivery when the
 * difference between t and the current time exceeds 300 seconds." Two pass (Poem taking the body as `Bytes`
 * and comparing with `constant_time_eq`; Roda trying each `v1` of the header with `Rack::Utils.secure_compare`
 * and a 200 s window); two fail by a slip that looks careful (the mapping template's `$input.json('$')`
 * re-serialising the body before the Lambda's careful HMAC; Crow's `strncmp` over the length that was sent).
 */
const fields = (h: string | undefined) => {
  const out = { t: '', v1: [] as string[] };
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't') out.t = value;
    if (name === 'v1') out.v1.push(value);
  }
  return out;
};
const tag = (secret: string, t: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const onTime = (t: string, windowS: number) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= windowS;
const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export const RECEIVERS_38: ReceiverKind[] = [
  {
    does: 'is a Rust Poem handler taking the body as Bytes, refusing |now - t| > 300 and comparing with constant_time_eq',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return onTime(t, 300) && equal(tag(secret, t, raw), v1[0] ?? '');
    },
  },
  // Roda: a header may carry several v1 (a key rotation); each is compared in constant time.
  {
    does: 'is a Ruby Roda route reading request.body.read, accepting any v1 of the header that Rack::Utils.secure_compare matches, with a 200 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const expected = tag(secret, t, raw);
      return onTime(t, 200) && v1.some((s) => equal(expected, s));
    },
  },
  // API Gateway REST: the mapping template hands the Lambda `$input.json('$')` (the body parsed and written
  // again, compact) as `body`; the Lambda's own check is careful, but of other bytes.
  {
    does: "is a Lambda behind an API Gateway REST mapping template passing $input.json('$') as the body, verified with a 300 s window and crypto.timingSafeEqual",
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      let again: string;
      try {
        again = JSON.stringify(JSON.parse(raw.toString('utf8')));
      } catch {
        return false;
      }
      return onTime(t, 300) && equal(tag(secret, t, again), v1[0] ?? '');
    },
  },
  // Crow: `strncmp(sent.c_str(), expected.c_str(), sent.size()) == 0` (meant to avoid reading past the
  // received string): a truncated or empty signature matches its prefix.
  {
    does: 'is a C++ Crow route comparing strncmp(sent, expected, sent.size()) with a 300 s window',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const sent = v1[0] ?? '';
      return onTime(t, 300) && tag(secret, t, raw).startsWith(sent);
    },
  },
];
