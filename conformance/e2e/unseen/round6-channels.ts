import { createHash, createHmac } from 'node:crypto';
import type { UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 6 of the unseen violations, part 4: channels beside the JSON answers — a resumption by
 * Last-Event-ID that starts one late, a rate-limit counter that counts the wrong way, a signature
 * computed with a plain hash, a timestamp from a shifted clock,
 * and a signing key shown again after creation.
 */
const digits = (s: string) => /^\d+$/.test(s.trim());
const receiverPath = new RegExp(`^${P('/webhooks')}/([^/]+)$`);

export const ROUND6_CHANNELS: UnseenViolation[] = [
  {
    name: 'last-event-id-resumes-one-late',
    statement:
      'Status stream: after an interruption, the client resumes without gaps by sending Last-Event-ID (last number read)',
    request(c) {
      // The header is read as "the next number to send" and one past it is looked up.
      const id = c.headers['last-event-id'];
      if (c.path === P('/stream') && id !== undefined && digits(id))
        c.headers['last-event-id'] = String(Number(id) + 1);
      return undefined;
    },
  },
  {
    name: 'remaining-counts-calls-made',
    statement: 'Limits: X-RateLimit-Remaining (calls left in the window) — not the calls made',
    answer(_c, a) {
      // The header is filled from the window's counter of calls made, which rises.
      const limit = Number(a.headers['x-ratelimit-limit']);
      const left = Number(a.headers['x-ratelimit-remaining']);
      if (Number.isFinite(limit) && Number.isFinite(left) && a.headers['x-ratelimit-remaining'] !== undefined)
        a.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - left));
    },
  },
  {
    name: 'signature-plain-hash-of-key',
    statement: 'Webhooks: the signature is an HMAC with SHA-256, keyed with the signing key (not a plain hash)',
    // SHA-256 over key, timestamp and body: the same length and form as the HMAC, and no HMAC.
    sign: (body, secret, t) => `t=${t},v1=${createHash('sha256').update(`${secret}${t}.${body}`).digest('hex')}`,
  },
  {
    name: 'signature-time-an-hour-ahead',
    statement:
      'Webhooks: t=<unix-seconds>; the receiver rejects the delivery when t differs from the current time by more than 300 seconds',
    // The sender's clock adds the local zone's offset (UTC+1) to Unix time; the signature is valid for that t.
    sign: (body, secret, t) => {
      const ahead = t + 3600;
      return `t=${ahead},v1=${createHmac('sha256', secret).update(`${ahead}.${body}`).digest('hex')}`;
    },
  },
  {
    name: 'signing-key-shown-again',
    statement: 'POST /webhooks: the signing key is issued exactly once in the response and must be stored at once',
    answer(c, a) {
      // The receiver record is serialised whole wherever it is read, the key included.
      const d = a.json.data;
      if (c.method === 'POST' && c.path === P('/webhooks') && a.status === 200 && d && typeof d.id === 'string') {
        const secret = Object.entries(d).find(([k, v]) => /secret|signing/i.test(k) && typeof v === 'string');
        if (secret) c.memory.set(`whsec:${d.id}`, secret);
        return;
      }
      if (c.method !== 'GET' || a.status !== 200 || !d) return;
      const records: Record<string, unknown>[] = Array.isArray(d.webhooks)
        ? d.webhooks
        : receiverPath.test(c.path)
          ? [d]
          : [];
      for (const r of records) {
        const secret = c.memory.get(`whsec:${String(r.id)}`) as [string, string] | undefined;
        if (secret) r[secret[0]] = secret[1];
      }
    },
  },
];
