import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 4 of the unseen violations, part 3: protocol-level slips — rate-limit headers that say
 * something impossible, streams that resume wrong only for some numbers or backlogs, signatures over
 * something other than the raw body or in another order, a token leaked in an encoding.
 */
const resumePoint = (c: ProxyCall) => Number(c.search.get('cursor') ?? c.headers['last-event-id'] ?? Number.NaN);
const bearer = (c: ProxyCall) => /^Bearer (.+)$/i.exec(c.headers.authorization ?? '')?.[1];
/** Per stream: how many chunks it has sent, the last number it carried. */
const streams = new WeakMap<ProxyCall, { chunks: number; last?: string }>();
const opened = (c: ProxyCall) => {
  const s = streams.get(c) ?? { chunks: 0 };
  streams.set(c, s);
  return s;
};
const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, x]) => [k, sorted(x)]),
        )
      : v;

export const ROUND4_CHANNELS: UnseenViolation[] = [
  {
    name: 'retry-after-zero',
    statement:
      'Limits: when exceeded, the service answers 429 with a wait time (Retry-After: recommended wait in seconds)',
    answer(_c, a) {
      if (a.status === 429) a.headers['retry-after'] = '0';
    },
  },
  {
    name: 'rate-limited-with-calls-left',
    statement: 'Limits: X-RateLimit-Remaining (calls left in the window): a 429 means none are left',
    answer(_c, a) {
      const limit = Number(a.headers['x-ratelimit-limit']);
      // A counter read from another window than the one that refused (half of the limit, or a few).
      if (a.status === 429) a.headers['x-ratelimit-remaining'] = String(limit > 1 ? Math.floor(limit / 2) : 7);
    },
  },
  {
    name: 'remaining-negative-every-fifth',
    statement: 'Limits: X-RateLimit-Remaining (calls left in the window: a count, never below zero)',
    answer(c, a) {
      if (a.headers['x-ratelimit-remaining'] === undefined) return;
      const n = Number(c.memory.get('counted') ?? 0) + 1;
      c.memory.set('counted', n);
      if (n % 5 === 0) a.headers['x-ratelimit-remaining'] = '-1';
    },
  },
  {
    name: 'two-digit-last-event-id-ignored',
    statement: 'Status stream: resumes without gaps by sending Last-Event-ID (last number read, any number)',
    request(c) {
      const id = c.headers['last-event-id'];
      // A parser that reads one digit: from message 10 on, the header is taken for garbage and dropped.
      if (c.path === P('/stream') && id && id.trim().length > 1) delete c.headers['last-event-id'];
      return undefined;
    },
  },
  {
    name: 'heartbeat-repeats-last-id',
    statement: 'Status stream: every message carries a consecutive number and arrives exactly once',
    stream(c, lines) {
      const s = opened(c);
      s.chunks++;
      for (const m of lines.matchAll(/^id: ?(\d+)$/gm)) s.last = m[1];
      // A keep-alive sent as a message that repeats the last number (after the first live one).
      return s.chunks > 1 && s.last && /^id: /m.test(lines) && lines.endsWith('\n\n')
        ? `${lines}id: ${s.last}\nevent: ping\ndata: {}\n\n`
        : lines;
    },
  },
  {
    name: 'resume-backlog-keeps-newest',
    statement: 'Status stream: after an interruption, the client resumes without gaps (the whole backlog)',
    stream(c, lines) {
      const s = opened(c);
      if (s.chunks++ > 0 || !(resumePoint(c) >= 0)) return lines;
      // The backlog of a resumed stream, written at once: only its newest message is sent.
      const blocks = lines.split(/\n\n/);
      const numbered = blocks.map((b, i) => (/^id: ?\d+/m.test(b) ? i : -1)).filter((i) => i >= 0);
      if (numbered.length < 2) return lines;
      const keep = numbered.at(-1);
      return blocks.filter((b, i) => i === keep || !/^id: ?\d+/m.test(b)).join('\n\n');
    },
  },
  {
    name: 'signature-over-sorted-json',
    statement: 'Webhooks: the signature is over <t>.<the unchanged raw request body> (not a re-serialisation)',
    sign(body, secret, t) {
      try {
        return signWebhook(JSON.stringify(sorted(JSON.parse(body))), secret, t);
      } catch {
        return signWebhook(body, secret, t);
      }
    },
  },
  {
    name: 'signature-fields-swapped',
    statement: 'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature> (in that order)',
    sign(body, secret, t) {
      const v1 = /v1=([0-9a-f]+)/.exec(signWebhook(body, secret, t))?.[1] ?? '';
      return `v1=${v1},t=${t}`;
    },
  },
  {
    name: 'token-base64-in-error-header',
    statement: 'Errors: no tokens are to be sent along (in any spelling: base64 too)',
    answer(c, a) {
      const token = bearer(c);
      if (token && a.status >= 400) a.headers['x-trace-context'] = Buffer.from(`tok:${token}`).toString('base64');
    },
  },
];
