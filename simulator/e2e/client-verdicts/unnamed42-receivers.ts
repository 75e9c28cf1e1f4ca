import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 42 receivers, careful or careless in new ways. "The receiver compares in constant time and rejects
 * the delivery when the difference between t and the current time exceeds 300 seconds." Two pass (a Bun.serve
 * handler that also refuses any t older than the newest it accepted, a replay guard; a CodeIgniter filter that
 * decodes the hex, as hex2bin does, and compares the bytes with hash_equals); two fail by a slip that looks
 * careful (a Sails policy whose timestamp tolerance is in report-only mode: it logs a stale delivery and takes
 * it; a Feathers hook whose tolerance comes from WEBHOOK_TOLERANCE=300000, meant as ms, read as seconds).
 */
const fields = (h: string | undefined) => {
  const out = { t: '', v1: '' };
  for (const part of (h ?? '').split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    if (name === 't') out.t = part.slice(at + 1).trim();
    if (name === 'v1' && !out.v1) out.v1 = part.slice(at + 1).trim();
  }
  return out;
};
const digest = (secret: string, t: string, body: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest();
const sameHex = (v1: string, expected: Buffer) => {
  const a = Buffer.from(v1, 'utf8');
  const b = Buffer.from(expected.toString('hex'), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
};
const numeric = (t: string) => /^\d+$/.test(t);
const age = (t: string) => Math.abs(Date.now() / 1000 - Number(t));

/** Bun.serve: the newest t accepted so far; an older one is taken for a replay. */
function bunReplayGuard() {
  let newest = 0;
  return (raw: Buffer, h: string | undefined, secret: string) => {
    const { t, v1 } = fields(h);
    if (!numeric(t) || age(t) > 300 || !sameHex(v1, digest(secret, t, raw))) return false;
    if (Number(t) < newest) return false;
    newest = Number(t);
    return true;
  };
}

export const RECEIVERS_42: ReceiverKind[] = [
  {
    does: 'is a Bun.serve handler verifying in constant time with a 300 s window that also refuses any t older than the newest it accepted',
    passes: true,
    verify: bunReplayGuard(),
  },
  {
    does: 'is a CodeIgniter filter decoding v1 from hex (hex2bin) and comparing the 32 bytes with hash_equals, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      if (!numeric(t) || age(t) > 300 || !/^[0-9a-fA-F]{64}$/.test(v1)) return false;
      const got = Buffer.from(v1, 'hex');
      const expected = digest(secret, t, raw);
      return got.length === expected.length && timingSafeEqual(got, expected);
    },
  },
  // The HMAC is enforced; the window is "report only" while the team watches its logs, and was never switched on.
  {
    does: 'is a Sails.js policy verifying the HMAC in constant time whose 300 s tolerance is in report-only mode (a stale t is logged and taken)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return numeric(t) && sameHex(v1, digest(secret, t, raw));
    },
  },
  // WEBHOOK_TOLERANCE=300000 written in ms by the ops team; the hook compares seconds with it.
  {
    does: 'is a FeathersJS hook verifying in constant time with its tolerance from WEBHOOK_TOLERANCE=300000 (meant as ms, compared with seconds)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const tolerance = Number('300000');
      return numeric(t) && age(t) <= tolerance && sameHex(v1, digest(secret, t, raw));
    },
  },
];
