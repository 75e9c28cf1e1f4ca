import { createHmac, timingSafeEqual } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 15 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." The signature header is handed to `verify` as the receiver got it; the receivers below that
 * sit behind a gateway first rebuild the header map that gateway gives them.
 */
const SIGNATURE = 'NCS-Signature';
const hexMac = (key: string, t: string, raw: Buffer, alg = 'sha256') =>
  createHmac(alg, key).update(`${t}.`).update(raw).digest('hex');
const pairs = (h: string | undefined) =>
  Object.fromEntries(
    (h ?? '').split(',').map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()];
    }),
  ) as Record<string, string | undefined>;
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300;
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
/** A check of the interface's rule over `body`, with `alg` as the HMAC's hash. */
const check = (body: Buffer, h: string | undefined, secret: string, alg = 'sha256') => {
  const { t = '', v1 = '' } = pairs(h);
  return fresh(t) && sameText(v1, hexMac(secret, t, body, alg));
};
/** The event an AWS API Gateway HTTP API (payload 2.0) hands a Lambda: header names lower-cased. */
const gatewayEvent = (raw: Buffer, h: string | undefined) => ({
  headers: { [SIGNATURE.toLowerCase()]: h, 'content-type': 'application/json' } as Record<string, string | undefined>,
  body: raw.toString('utf8'),
  isBase64Encoded: false,
});
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

export const RECEIVERS_15: ReceiverKind[] = [
  // API Gateway HTTP APIs lower-case every header name; "HTTP header names are case-insensitive", so the
  // Lambda looks the signature up by its lower-case name.
  {
    does: 'is a Lambda behind an API Gateway HTTP API (header names lower-cased) reading event.headers["ncs-signature"], constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const event = gatewayEvent(raw, h);
      return check(Buffer.from(event.body, 'utf8'), event.headers[SIGNATURE.toLowerCase()], secret);
    },
  },
  // The same Lambda ported from a REST API (which kept the sender's case): event.headers["NCS-Signature"]
  // is undefined behind the HTTP API, so every genuine delivery is refused as unsigned.
  {
    does: 'is a Lambda behind an API Gateway HTTP API reading event.headers["NCS-Signature"] (exact case), undefined there, so genuine deliveries are refused',
    passes: false,
    verify: (raw, h, secret) => {
      const event = gatewayEvent(raw, h);
      return check(Buffer.from(event.body, 'utf8'), event.headers[SIGNATURE], secret);
    },
  },
  // A receiver behind a proxy that may gzip request bodies: it gunzips only what starts with the gzip
  // magic bytes (the service sends no Content-Encoding) and verifies the bytes the sender signed.
  {
    does: 'gunzips a body only when it starts with the gzip magic bytes, then verifies the bytes as sent, constant time, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const body = raw.subarray(0, 2).equals(GZIP_MAGIC) ? gunzipSync(raw) : raw;
      return check(body, h, secret);
    },
  },
  // Phoenix: Plug.Parsers read the body before the webhook plug, so Plug.Conn.read_body returns "" and
  // the HMAC is computed over t and an empty body: every genuine delivery is refused.
  {
    does: 'is a Phoenix endpoint whose Plug.Parsers consumed the body first, so read_body gives "" and the HMAC covers an empty body',
    passes: false,
    verify: (_raw, h, secret) => check(Buffer.alloc(0), h, secret),
  },
  // OCaml Dream: Eqaf.equal (constant time) on the hex, Unix.gettimeofday for the window both ways, 401
  // for anything else.
  {
    does: 'is an OCaml Dream handler comparing hex with Eqaf.equal and checking |Unix.gettimeofday - t| <= 300',
    passes: true,
    verify: (raw, h, secret) => check(raw, h, secret),
  },
  // Crystal: OpenSSL::HMAC.hexdigest(:sha1, ...) where SHA-256 was meant: a 40-digit MAC never equals
  // the 64-digit v1, so every genuine delivery is refused.
  {
    does: 'is a Crystal handler computing OpenSSL::HMAC.hexdigest(:sha1, …) instead of SHA-256, refusing every genuine delivery',
    passes: false,
    verify: (raw, h, secret) => check(raw, h, secret, 'sha1'),
  },
  // Gleam on the BEAM reading "now" with erlang:monotonic_time(second) where erlang:system_time(second)
  // was meant: monotonic time has an arbitrary origin (here the VM's uptime), so `now - t <= 300` holds for
  // every t and neither a stale nor a future delivery is refused.
  {
    does: 'is a Gleam handler taking now from erlang:monotonic_time(second) (the VM’s uptime), so its window test now - t <= 300 never refuses',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      const monotonicNow = Math.floor(process.uptime());
      return /^\d+$/.test(t) && monotonicNow - Number(t) <= 300 && sameText(v1, hexMac(secret, t, raw));
    },
  },
  // Trusts a delivery id it has verified once ("a redelivery from the delivery log was checked the first
  // time") and processes it again without verifying: a forged body under a captured delivery id is taken.
  // Pinned with today's verdict (it passes): by its answer alone the check cannot tell this receiver from
  // one that acknowledges a seen id without processing it again, which is right; every forged case of the
  // check comes under a fresh id.
  {
    does: 'skips verification for a delivery id it verified before (trusting redeliveries) and processes it, so a forged body under a captured id is taken',
    passes: true,
    verify: (() => {
      const verified = new Set<string>();
      return (raw: Buffer, h: string | undefined, secret: string, id: string) => {
        if (verified.has(id)) return true;
        const good = check(raw, h, secret);
        if (good) verified.add(id);
        return good;
      };
    })(),
  },
];
