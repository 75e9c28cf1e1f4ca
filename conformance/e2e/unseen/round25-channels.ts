import { createHash, createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 25 of the unseen violations, part 3: the stream and webhook deliveries — live messages of a
 * resumed stream renumbered from 1 after the backlog, later resumptions served from the first
 * resumption's position, a signing key hex-decoded before use, an extra v0 (SHA-1) pair appended to the
 * signature header, and delivery bodies re-serialised with sorted keys after signing.
 */
const ID = /^id:( ?)(\d+)[ \t]*$/gm;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const resumeFrom = (c: ProxyCall) => c.search.get('cursor') ?? c.headers['last-event-id'];
/** Per stream connection: how many chunks it has sent and how many later messages it renumbered. */
const chunks = new WeakMap<ProxyCall, { chunks: number; n: number }>();
const sortKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortKeys)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
        )
      : v;

export const ROUND25_CHANNELS: UnseenViolation[] = [
  {
    name: 'resumed-stream-live-ids-restart-after-backlog',
    statement:
      'Status stream: Every message carries a consecutive number and arrives exactly once ... the client resumes without gaps',
    stream(c, lines) {
      // A resumed connection numbers its backlog from the store, then hands over to the live fan-out,
      // which numbers with its own per-connection counter starting at 1.
      if (!isStream(c) || !resumeFrom(c)) return lines;
      const s = chunks.get(c) ?? { chunks: 0, n: 0 };
      chunks.set(c, s);
      s.chunks += 1;
      if (s.chunks === 1) return lines;
      return lines.replace(ID, (_m, sp: string) => {
        s.n += 1;
        return `id:${sp}${s.n}`;
      });
    },
  },
  {
    name: 'later-resumptions-use-first-resume-position',
    statement:
      'Status stream: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)',
    request(c) {
      // The edge caches the resume position per client address for "sticky" reconnects: every later
      // resumption from the same address restarts where the first one did.
      if (!isStream(c)) return undefined;
      const from = resumeFrom(c);
      if (!from) return undefined;
      const first = c.memory.get('r25-first-resume') as string | undefined;
      if (first === undefined) {
        c.memory.set('r25-first-resume', from);
        return undefined;
      }
      if (c.search.has('cursor')) c.search.set('cursor', first);
      if (c.headers['last-event-id'] !== undefined) c.headers['last-event-id'] = first;
      return undefined;
    },
  },
  {
    name: 'signature-key-hex-decoded',
    statement: 'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key',
    sign(body, secret, t) {
      // The signer treats the issued key as hex (as the key-management library stores raw keys) and
      // keys the MAC with the decoded bytes (whatever hex prefix the key text has) instead of the key text.
      const mac = createHmac('sha256', Buffer.from(secret, 'hex')).update(`${t}.${body}`, 'utf8').digest('hex');
      return `t=${t},v1=${mac}`;
    },
  },
  {
    name: 'signature-header-adds-v0-sha1',
    statement: 'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature>',
    sign(body, secret, t) {
      // During a migration the legacy SHA-1 signature is appended for old receivers, so the header no
      // longer has the stated form.
      const v1 = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
      const v0 = createHash('sha1').update(`${secret}${t}${body}`, 'utf8').digest('hex');
      return `t=${t},v1=${v1},v0=${v0}`;
    },
  },
  {
    name: 'delivery-body-keys-sorted-after-signing',
    statement: 'Webhooks: The signature is an HMAC ... over the text <t>, a dot, and the unchanged raw request body',
    deliver(d) {
      // An outbound "normalising" middleware re-serialises JSON bodies with sorted keys after the
      // signature was computed over the original text.
      try {
        d.body = JSON.stringify(sortKeys(JSON.parse(d.body)));
      } catch {
        // not JSON: left alone
      }
    },
  },
];
