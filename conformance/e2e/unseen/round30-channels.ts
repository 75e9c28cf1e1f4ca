import { createHmac } from 'node:crypto';
import type { UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 30 of the unseen violations, part 4: channels — resumed streams under the alternate address
 * without message numbers, an HMAC with key and message swapped, and a MAC over the body encoded as a
 * JSON string a second time.
 */
export const ROUND30_CHANNELS: UnseenViolation[] = [
  {
    name: 'alt-resumed-stream-unnumbered',
    statement:
      'Events: Every message carries a consecutive number … the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (under {alt_base_url})',
    stream(c, lines) {
      // The alternate domain's edge re-emits resumed streams from its own buffer, which keeps only the
      // data lines of each message.
      if (c.base !== 'alt' || c.path !== P('/stream')) return lines;
      const resumed = c.search.has('cursor') || c.headers['last-event-id'] !== undefined;
      return resumed ? lines.replace(/^id:.*\n/gm, '') : lines;
    },
  },
  {
    name: 'signature-hmac-key-and-message-swapped',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // createHmac(alg, key).update(msg) was called with the signed text as key and the signing key as message.
      return `t=${t},v1=${createHmac('sha256', `${t}.${body}`).update(secret, 'utf8').digest('hex')}`;
    },
  },
  {
    name: 'signature-over-json-encoded-body',
    statement:
      'Webhooks: The signature is an HMAC … over the text <t>, a dot, and the unchanged raw request body, written as lowercase hex',
    sign(body, secret, t) {
      // The signer receives the body already as a string and JSON-encodes it once more (quotes, escapes).
      return `t=${t},v1=${createHmac('sha256', secret)
        .update(`${t}.${JSON.stringify(body)}`, 'utf8')
        .digest('hex')}`;
    },
  },
];
