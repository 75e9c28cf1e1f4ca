import { createHmac } from 'node:crypto';
import type { UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 19 of the unseen violations, part 4: the stream and webhook signatures — a greeting message
 * numbered 0 on every connection, every second resumption served from the start, signatures written as
 * colon-separated byte pairs, keyed with the lower-cased signing key, with t in hexadecimal, and
 * computed over the receiver's first delivery body.
 */
const isStream = (c: { method: string; path: string }) => c.method === 'GET' && c.path === P('/stream');
const mac = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
/** Per signing key: the first body signed with it (the signer's cache is keyed by receiver, not by delivery). */
const firstBody = new Map<string, string>();

export const ROUND19_CHANNELS: UnseenViolation[] = [
  {
    name: 'greeting-message-numbered-zero',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once. After an interruption, the client resumes without gaps',
    stream(c, lines) {
      // A "connected" message is sent on every connection with the id 0, so each resumption repeats it.
      if (!isStream(c)) return lines;
      return lines.replace(
        /^retry: (\d+)\r?\n/m,
        (m) => `${m}\nid: 0\nevent: stream.connected\ndata: {"connected":true}\n`,
      );
    },
  },
  {
    name: 'every-second-resumption-from-start',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)',
    request(c) {
      // One of two stream replicas behind the balancer predates resumption and serves the whole backlog.
      if (!isStream(c) || (!c.search.has('cursor') && c.headers['last-event-id'] === undefined)) return undefined;
      const n = ((c.memory.get('r19-resumes') as number | undefined) ?? 0) + 1;
      c.memory.set('r19-resumes', n);
      if (n % 2 === 0) {
        c.search.delete('cursor');
        delete c.headers['last-event-id'];
        c.search.set('cursor', '0');
      }
      return undefined;
    },
  },
  {
    name: 'signature-hex-colon-separated',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256 ... written as lowercase hex (header value t=<unix-seconds>,v1=<hex-signature>)',
    sign(body, secret, t) {
      // The digest is formatted with the certificate-fingerprint helper, which separates bytes by colons.
      const pairs = mac(secret, `${t}.${body}`).match(/../g) ?? [];
      return `t=${t},v1=${pairs.join(':')}`;
    },
  },
  {
    name: 'signature-keyed-with-lowercased-key',
    statement: 'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key',
    sign(body, secret, t) {
      // The key is read through a config loader that lower-cases every value.
      return `t=${t},v1=${mac(secret.toLowerCase(), `${t}.${body}`)}`;
    },
  },
  {
    name: 'signature-t-hexadecimal',
    statement: 'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature>',
    sign(body, secret, t) {
      // The timestamp passes through the same hex encoder as the signature, both in the header and the MAC.
      const hexT = t.toString(16);
      return `t=${hexT},v1=${mac(secret, `${hexT}.${body}`)}`;
    },
  },
  {
    name: 'signature-over-first-delivery-body',
    statement: 'Webhooks: The signature is an HMAC ... over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The signer memoises the signed payload per receiver, so later deliveries carry the first one's MAC input.
      const first = firstBody.get(secret) ?? body;
      firstBody.set(secret, first);
      return `t=${t},v1=${mac(secret, `${t}.${first}`)}`;
    },
  },
];
