import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 37 receivers in frameworks no earlier round used (Erlang Cowboy, Elixir Bandit with Plug, F# Giraffe,
 * Haskell Yesod). "The receiver compares in constant time and rejects the delivery when the difference
 * between t and the current time exceeds 300 seconds." Two pass (Cowboy reading the whole body with
 * `cowboy_req:read_body` and comparing with `crypto:hash_equals`; Bandit with a 250 s window and
 * `Plug.Crypto.secure_compare`); two fail by a slip that looks careful (Giraffe letting an unsigned delivery
 * through as the provider's test ping; Yesod answering 202 to a delivery that failed, keeping it in a
 * dead-letter table so nothing is lost).
 */
const fields = (h: string | undefined) => {
  const out = { t: '', v1: '' };
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    if (name === 't' || name === 'v1') out[name] = part.slice(at + 1).trim();
  }
  return out;
};
const tag = (secret: string, t: string, raw: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex');
const onTime = (t: string, windowS: number) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= windowS;
const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
/** The careful check the four share: raw body, constant time, a window of `windowS`. */
const verified = (raw: Buffer, h: string | undefined, secret: string, windowS: number) => {
  const { t, v1 } = fields(h);
  return onTime(t, windowS) && equal(tag(secret, t, raw), v1);
};

export const RECEIVERS_37: ReceiverKind[] = [
  {
    does: 'is an Erlang Cowboy handler reading the whole body with cowboy_req:read_body, refusing abs(os:system_time(second) - T) > 300 and comparing with crypto:hash_equals',
    passes: true,
    verify: (raw, h, secret) => verified(raw, h, secret, 300),
  },
  {
    does: 'is an Elixir Bandit endpoint whose Plug.Parsers body_reader caches the raw body, with a 250 s window and Plug.Crypto.secure_compare',
    passes: true,
    verify: (raw, h, secret) => verified(raw, h, secret, 250),
  },
  // Giraffe: the provider's dashboard "send test" button was taken to post unsigned, so a delivery with no
  // signature header is answered 204 and logged as a ping (its handler still runs).
  {
    does: 'is an F# Giraffe handler that verifies signed deliveries carefully but answers 204 to one with no signature header, taken for the provider’s unsigned test ping',
    passes: false,
    verify: (raw, h, secret) => h === undefined || verified(raw, h, secret, 300),
  },
  // Yesod: a delivery that fails verification goes to a dead-letter table and is answered 202, "so the
  // provider does not retry it": the forged and stale ones are accepted.
  {
    does: 'is a Haskell Yesod handler comparing with constEq and a 300 s window that answers 202 to a delivery failing either, after writing it to a dead-letter table for review',
    passes: false,
    verify: () => true,
  },
];
