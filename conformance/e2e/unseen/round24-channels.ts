import { createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 24 of the unseen violations, part 3: the stream and webhook signatures — resumed streams
 * whose numbers are shifted by the cursor, an alternate address numbering its stream from 1000 on, a MAC
 * written as base64, a colon between t and body, a MAC over the lower-cased body, and a MAC cut to 32
 * hex digits.
 */
const ID = /^id:( ?)(\d+)[ \t]*$/gm;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const resumeFrom = (c: ProxyCall) => Number(c.search.get('cursor') ?? c.headers['last-event-id'] ?? 0) || 0;
const mac = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8');
/** An alternate-address stream number is the main one plus this. */
const ALT_OFFSET = 1000;

export const ROUND24_CHANNELS: UnseenViolation[] = [
  {
    name: 'resumed-ids-offset-by-cursor',
    statement:
      'Status stream: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read).',
    stream(c, lines) {
      // The resume path adds the cursor to the message's position in the backlog slice, which is
      // already an absolute number: a stream resumed after n continues at 2n+1.
      const from = resumeFrom(c);
      if (!isStream(c) || from <= 0) return lines;
      return lines.replace(ID, (_m, sp: string, n: string) => `id:${sp}${Number(n) + from}`);
    },
  },
  {
    name: 'alt-stream-numbers-offset',
    statement:
      'Status stream: Every message carries a consecutive number ... the client resumes without gaps (the same interface is also offered under {alt_base_url})',
    request(c) {
      // The alternate region's stream relay numbers messages in its own range (from 1000 on) and
      // translates its own numbers back on resume; a number read at the main address is taken as is.
      if (c.base !== 'alt' || !isStream(c)) return undefined;
      const back = (v: string | null | undefined) =>
        v !== null && v !== undefined && Number(v) >= ALT_OFFSET ? String(Number(v) - ALT_OFFSET) : v;
      const cursor = back(c.search.get('cursor'));
      if (cursor !== null && cursor !== undefined) c.search.set('cursor', cursor);
      const last = back(c.headers['last-event-id']);
      if (last !== undefined && last !== null) c.headers['last-event-id'] = last;
      return undefined;
    },
    stream(c, lines) {
      if (c.base !== 'alt' || !isStream(c)) return lines;
      return lines.replace(ID, (_m, sp: string, n: string) => `id:${sp}${Number(n) + ALT_OFFSET}`);
    },
  },
  {
    name: 'signature-mac-base64',
    statement: 'Webhooks: The signature is an HMAC with SHA-256 ... written as lowercase hex',
    sign(body, secret, t) {
      // The signer was ported from a provider whose signatures are base64; the header still says v1.
      return `t=${t},v1=${mac(secret, `${t}.${body}`).digest('base64')}`;
    },
  },
  {
    name: 'signature-separator-colon',
    statement: 'Webhooks: The signature is an HMAC ... over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The signed text is built with the same join helper as the header's key=value pairs (a colon).
      return `t=${t},v1=${mac(secret, `${t}:${body}`).digest('hex')}`;
    },
  },
  {
    name: 'signature-over-lowercased-body',
    statement: 'Webhooks: The signature is an HMAC ... over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The body goes through the "canonicalise" helper of the event store (lower-casing for lookups)
      // before signing; the request sends the original body.
      return `t=${t},v1=${mac(secret, `${t}.${body.toLowerCase()}`).digest('hex')}`;
    },
  },
  {
    name: 'signature-hex-cut-to-32',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key ... written as lowercase hex',
    sign(body, secret, t) {
      // The header builder truncates the MAC to 128 bits ("shorter headers") as one provider does.
      return `t=${t},v1=${mac(secret, `${t}.${body}`).digest('hex').slice(0, 32)}`;
    },
  },
];
