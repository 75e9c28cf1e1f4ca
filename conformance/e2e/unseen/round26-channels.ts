import { createHmac } from 'node:crypto';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 26 of the unseen violations, part 3: the stream, the rate-limit headers of a 429 and webhook
 * signatures — a resumption from the newest number the edge has seen answered 204, a second resumption
 * from the same position served without its backlog, every fifth stream connection unnumbered, a 429
 * reporting a limit of 0, and signatures whose hex drops the leading zero of small bytes.
 */
const ID = /^id:[ \t]?(\d+)[ \t]*$/gm;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const resumeFrom = (c: ProxyCall) => c.search.get('cursor') ?? c.headers['last-event-id'];
/** Remembers the highest message number any stream connection passed on. */
const seen = (c: ProxyCall, lines: string, slot: string) => {
  for (const m of lines.matchAll(ID)) {
    const n = Number(m[1]);
    if (n > ((c.memory.get(slot) as number | undefined) ?? 0)) c.memory.set(slot, n);
  }
};
/** The ordinal of each stream connection (in order of arrival). */
const ordinals = new WeakMap<ProxyCall, number>();

export const ROUND26_CHANNELS: UnseenViolation[] = [
  {
    name: 'resume-at-newest-answered-204',
    statement:
      'Status stream: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read); Endpoints: Success responses use status 200',
    request(c) {
      // The edge keeps the newest number it has relayed; a client resuming from it "has everything", so
      // the edge answers 204 No Content instead of opening the stream (missing what was written since).
      if (!isStream(c)) return undefined;
      const from = Number(resumeFrom(c));
      const newest = c.memory.get('r26-newest') as number | undefined;
      if (!Number.isInteger(from) || from <= 0 || newest === undefined || from < newest) return undefined;
      return { status: 204, headers: {}, json: {}, raw: '' };
    },
    stream(c, lines) {
      if (isStream(c)) seen(c, lines, 'r26-newest');
      return lines;
    },
  },
  {
    name: 'repeat-resume-from-same-position-gets-no-backlog',
    statement:
      'Status stream: Every message carries a consecutive number and arrives exactly once. After an interruption, the client resumes without gaps',
    request(c) {
      // The backlog of a position is marked "delivered" after the first resumption from it; a client
      // resuming from that position again (its connection dropped once more) only gets live messages.
      if (!isStream(c)) return undefined;
      const from = resumeFrom(c);
      if (from === undefined || from === '' || from === '0') return undefined;
      const slot = `r26-resumed:${from}`;
      if (c.memory.get(slot) !== true) {
        c.memory.set(slot, true);
        return undefined;
      }
      const newest = c.memory.get('r26-newest-b') as number | undefined;
      if (newest === undefined || newest <= Number(from)) return undefined;
      if (c.search.has('cursor')) c.search.set('cursor', String(newest));
      if (c.headers['last-event-id'] !== undefined) c.headers['last-event-id'] = String(newest);
      return undefined;
    },
    stream(c, lines) {
      if (isStream(c)) seen(c, lines, 'r26-newest-b');
      return lines;
    },
  },
  {
    name: 'fifth-stream-connection-unnumbered',
    statement: 'Status stream: Every message carries a consecutive number and arrives exactly once',
    request(c) {
      // Stream connections are spread over five fan-out workers; the fifth runs an older build whose
      // writer omits the id line.
      if (!isStream(c)) return undefined;
      const n = ((c.memory.get('r26-streams') as number | undefined) ?? 0) + 1;
      c.memory.set('r26-streams', n);
      ordinals.set(c, n);
      return undefined;
    },
    stream(c, lines) {
      const n = ordinals.get(c);
      if (!isStream(c) || n === undefined || n % 5 !== 0) return lines;
      return lines.replace(/^id:.*\r?\n/gm, '');
    },
  },
  {
    name: 'rate-limited-answer-limit-header-zero',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window)',
    answer(_c, a: ProxyAnswer) {
      // The limiter fills both headers from the "left" counter when it refuses, so the limit of the
      // window reads 0 on every 429.
      if (a.status !== 429) return;
      a.headers['x-ratelimit-limit'] = '0';
      a.headers['x-ratelimit-remaining'] = '0';
    },
  },
  {
    name: 'signature-hex-bytes-unpadded',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256 ... written as lowercase hex (the header value has the form t=<unix-seconds>,v1=<hex-signature>)',
    sign(body, secret, t) {
      // A hand-written hex encoder converts byte by byte without padding: bytes below 0x10 lose their
      // leading zero, so most signatures are shorter than 64 digits and do not compare.
      const mac = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest();
      const hex = Array.from(mac, (b) => b.toString(16)).join('');
      return `t=${t},v1=${hex}`;
    },
  },
];
