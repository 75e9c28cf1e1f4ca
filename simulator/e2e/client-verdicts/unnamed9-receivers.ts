import { createHmac, randomBytes } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';
import { ageS, signedBy } from './unnamed8-receivers.ts';

const header = (h: string | undefined) => {
  const m = /^t=(\d+),v1=([0-9a-f]+)$/.exec(h ?? '');
  return { t: m?.[1] ?? '', v1: m?.[2] ?? '' };
};
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(ageS(t, Date.now() / 1000)) <= 300;
const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));

/**
 * Round 9 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds
 * 300 seconds."
 */
export const RECEIVERS_9: ReceiverKind[] = [
  // A Cloudflare Worker: `crypto.subtle.verify('HMAC', key, hexToBytes(v1), concat(`${t}.`, rawBody))`
  // compares the MAC bytes in constant time. The test receiver answers synchronously, so the same
  // check is written out: the HMAC over the raw bytes, compared with an XOR-accumulate over all bytes.
  {
    does: 'is a Cloudflare Worker verifying like crypto.subtle.verify(HMAC-SHA-256): the signature hex-decoded to bytes, compared with every byte of the MAC over the raw body, with the 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = header(h);
      if (!fresh(t) || v1.length !== 64) return false;
      const want = createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
      const got = hexBytes(v1);
      let diff = 0;
      for (let i = 0; i < want.length; i++) diff |= (want[i] ?? 0) ^ (got[i] ?? 0);
      return diff === 0;
    },
  },
  // A Django REST Framework view verifying over `json.dumps(request.data)`: Python's default
  // separators (", ", ": ") write even the compact delivery anew, so valid deliveries are refused.
  {
    does: 'is a Django REST Framework view that verifies over json.dumps(request.data) (default separators ", " and ": "), not the raw body',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = header(h);
      let again: string;
      try {
        again = pythonDumps(JSON.parse(raw.toString('utf8')));
      } catch {
        return false;
      }
      return fresh(t) && v1 === createHmac('sha256', secret).update(`${t}.${again}`).digest('hex');
    },
  },
  // An HMAC over `${t}${body}`: the dot of the rule left out.
  {
    does: 'computes the HMAC over t and the raw body without the dot between them',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = header(h);
      return fresh(t) && v1 === createHmac('sha256', secret).update(t).update(raw).digest('hex');
    },
  },
  // After rotations it keeps the two previous signing keys and accepts a signature by any of the three:
  // a forged delivery signed with an unknown key is still refused.
  {
    does: 'keeps its two previous signing keys after rotations and accepts a signature by any of its three keys, in constant time, with the 300 s window',
    passes: true,
    verify: (() => {
      const previous = [randomBytes(24).toString('base64url'), randomBytes(24).toString('base64url')];
      return (raw: Buffer, h: string | undefined, secret: string) =>
        fresh(header(h).t) && [secret, ...previous].some((k) => signedBy(raw, h, k));
    })(),
  },
];

/** Python's `json.dumps(obj)` with its default separators (", " and ": "), ASCII-only input. */
export function pythonDumps(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pythonDumps).join(', ')}]`;
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${pythonDumps(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v);
}
