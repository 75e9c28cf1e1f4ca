import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 32 receivers in frameworks no earlier round used (Rust Warp, a Val Town HTTP val, a Fermyon Spin
 * component, Raku Cro). "The receiver compares in constant time and rejects the delivery when the
 * difference between t and the current time exceeds 300 seconds." Two pass by unusual means (Warp's
 * `body::bytes()` with hmac's `verify_slice`; WebCrypto's `crypto.subtle.verify` over the decoded hex);
 * two fail by a slip that looks careful (a clock read once when the component was pre-initialised, a
 * window written with `&&` where `||` was meant).
 */
const fields = (h: string | undefined) => {
  let t = '';
  let v1 = '';
  for (const part of (h ?? '').split(',')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 't') t = rest.join('=');
    if (name === 'v1') v1 = rest.join('=');
  }
  return { t, v1 };
};
const tag = (secret: string, t: string, body: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest();
/** Hex decoded to bytes (upper case too, as `hex::decode` and a hand-written decoder do), or undefined. */
const unhex = (v1: string) => (/^(?:[0-9a-fA-F]{2})+$/.test(v1) ? Buffer.from(v1, 'hex') : undefined);
const sameBytes = (a: Buffer | undefined, b: Buffer) =>
  a !== undefined && a.length === b.length && timingSafeEqual(a, b);
const nowS = () => Date.now() / 1000;
/** The clock a Wizer snapshot froze: read at build time, 10 minutes before the component serves. */
const snapshotS = nowS() - 600;

export const RECEIVERS_32: ReceiverKind[] = [
  // Warp: `warp::body::bytes()` (the raw body), `SystemTime::now()` against t, `mac.verify_slice(&tag)`.
  {
    does: 'is a Rust Warp filter reading warp::body::bytes(), refusing |now - t| > 300 and checking the decoded v1 with hmac’s verify_slice',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || Math.abs(nowS() - Number(t)) > 300) return false;
      return sameBytes(unhex(v1), tag(secret, t, raw));
    },
  },
  // Val Town: `await req.arrayBuffer()`, `crypto.subtle.verify('HMAC', key, hexToBytes(v1), data)`
  // (WebCrypto compares the tag itself), a 300 s window, and a blob store refusing delivery ids seen.
  {
    does: 'is a Val Town HTTP val verifying with crypto.subtle.verify over the raw arrayBuffer and the decoded v1, 300 s window, refusing delivery ids its blob store has seen',
    passes: true,
    verify: (() => {
      const seen = new Set<string>();
      return (raw: Buffer, h: string | undefined, secret: string, id: string) => {
        const { t, v1 } = fields(h);
        if (!/^\d+$/.test(t) || Math.abs(nowS() - Number(t)) > 300) return false;
        if (!sameBytes(unhex(v1), tag(secret, t, raw))) return false;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      };
    })(),
  },
  // Spin + Wizer: `const now = Math.floor(Date.now() / 1000)` at module scope runs during pre-initialisation,
  // so the snapshot serves with the build's clock: every fresh delivery reads 10 minutes ahead.
  {
    does: 'is a Fermyon Spin component pre-initialised with Wizer, its module-scope Date.now() frozen in the snapshot 10 minutes before it serves, so it refuses even valid deliveries',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || Math.abs(snapshotS - Number(t)) > 300) return false;
      return sameBytes(unhex(v1), tag(secret, t, raw));
    },
  },
  // Raku Cro: `return bad-request if now - $t > 300 && $t - now > 300;`: both can never hold at once.
  {
    does: 'is a Raku Cro route refusing when now - $t > 300 && $t - now > 300 (&& where || was meant), so no timestamp is ever too old or too new',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!/^\d+$/.test(t) || (nowS() - Number(t) > 300 && Number(t) - nowS() > 300)) return false;
      return sameBytes(unhex(v1), tag(secret, t, raw));
    },
  },
];
