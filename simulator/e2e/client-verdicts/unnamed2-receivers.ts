import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/** A receiver of the second round: how it verifies, and how slowly it acknowledges (ms). */
export interface ReceiverKind2 extends ReceiverKind {
  delayMs?: number;
  /** The receiver check's timeout for it (default 5,000 ms). */
  timeoutMs?: number;
}

const hmac = (secret: string, signed: string | Buffer, body?: Buffer) => {
  const h = createHmac('sha256', secret).update(signed);
  return (body ? h.update(body) : h).digest('hex');
};
const parse = (header: string | undefined) => {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.trim().split('=') as [string, string]));
  return { t: parts.t ?? '', v1: parts.v1 ?? '' };
};
const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const age = (t: string) => Date.now() / 1000 - Number(t);
const correct = (secret: string, raw: Buffer, header: string | undefined) => {
  const { t, v1 } = parse(header);
  return /^\d+$/.test(t) && Math.abs(age(t)) <= 300 && sameHex(v1, hmac(secret, `${t}.`, raw));
};

export const RECEIVERS_2: ReceiverKind2[] = [
  {
    does: 'accepts a signature made with either of two secrets (a rotation in progress)',
    passes: true,
    verify: (raw, header, secret) => correct('whsec_previous_rotated_out', raw, header) || correct(secret, raw, header),
  },
  {
    does: 'verifies correctly and acknowledges each delivery after 150 ms (well within the timeout)',
    passes: true,
    delayMs: 150,
    verify: (raw, header, secret) => correct(secret, raw, header),
  },
  {
    does: 'refuses forged and stale deliveries by closing the connection without an answer',
    passes: true,
    verify: (raw, header, secret) => correct(secret, raw, header) || 'drop',
  },
  {
    does: 'acknowledges every delivery with 2xx at once and verifies later, from a queue',
    passes: false,
    verify: () => true,
  },
  {
    does: 'verifies only when a signature header is present (an unsigned delivery passes)',
    passes: false,
    verify: (raw, header, secret) => header === undefined || correct(secret, raw, header),
  },
  {
    does: 'refuses timestamps over 300 s old but takes any in the future',
    passes: false,
    verify: (raw, header, secret) => {
      const { t, v1 } = parse(header);
      return /^\d+$/.test(t) && age(t) <= 300 && sameHex(v1, hmac(secret, `${t}.`, raw));
    },
  },
  {
    does: 'signs the body alone, without the timestamp and dot',
    passes: false,
    verify: (raw, header, secret) => {
      const { t, v1 } = parse(header);
      return /^\d+$/.test(t) && Math.abs(age(t)) <= 300 && sameHex(v1, hmac(secret, raw));
    },
  },
  {
    does: 'reads t as milliseconds (every delivery looks 55 years old)',
    passes: false,
    verify: (raw, header, secret) => {
      const { t, v1 } = parse(header);
      return Math.abs(Date.now() - Number(t)) / 1000 <= 300 && sameHex(v1, hmac(secret, `${t}.`, raw));
    },
  },
  {
    does: 'verifies correctly but acknowledges only after the delivery timeout',
    passes: false,
    delayMs: 1_500,
    timeoutMs: 400,
    verify: (raw, header, secret) => correct(secret, raw, header),
  },
];
