import { createHash, createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 21 of the unseen violations, part 3: the stream, webhook signatures and the audit log — every
 * fifth message sent without its data line (so no client dispatches it), each message flushed only
 * when the next one is written, a resume from cursor 0 dropping the first message, a resumed stream
 * sending its newest backlog message twice, signatures keyed
 * with a newline-terminated key, a signer clock six minutes behind, a naive keyed SHA-256 in place of
 * the HMAC, audit entries not chained to their predecessor, and an audit proof range one past the page.
 */
type Rec = Record<string, any>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const mac = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
/** Per-stream state of a violation (one object per request). */
const state = <T>(store: WeakMap<ProxyCall, T>, c: ProxyCall, init: () => T) => {
  let s = store.get(c);
  if (s === undefined) {
    s = init();
    store.set(c, s);
  }
  return s;
};
const fifth = new WeakMap<ProxyCall, { id: number }>();
const late = new WeakMap<ProxyCall, { held: string }>();
const boundary = new WeakMap<ProxyCall, { done: boolean }>();
const dropped = new WeakMap<ProxyCall, { done: boolean; dropping: boolean }>();

export const ROUND21_CHANNELS: UnseenViolation[] = [
  {
    name: 'every-fifth-message-without-data-line',
    statement: 'Events: Every message carries a consecutive number and arrives exactly once',
    stream(c, lines) {
      // The message writer names the payload field "payload:" for one message kind; SSE clients drop
      // a message without data, so it never arrives although its number was spent.
      if (!isStream(c)) return lines;
      const s = state(fifth, c, () => ({ id: -1 }));
      return lines
        .split('\n')
        .map((line) => {
          const id = /^id: ?(\d+)$/.exec(line);
          if (id) s.id = Number(id[1]);
          else if (line === '') s.id = -1;
          else if (s.id > 0 && s.id % 5 === 0 && line.startsWith('data:')) return `payload:${line.slice(5)}`;
          return line;
        })
        .join('\n');
    },
  },
  {
    name: 'stream-flushes-one-message-late',
    statement: 'Events: GET /api/public/v1/stream delivers state changes continuously as Server-Sent Events',
    stream(c, lines) {
      // The writer's buffer is flushed only when the next message is written, so the newest message
      // waits for another state change before it reaches the client.
      if (!isStream(c)) return lines;
      const s = state(late, c, () => ({ held: '' }));
      const text = s.held + lines;
      const last = Math.max(text.lastIndexOf('\nid:'), text.startsWith('id:') ? 0 : -1);
      if (last < 0) {
        s.held = '';
        return text;
      }
      const cut = text.startsWith('id:') && last === 0 ? 0 : last + 1;
      s.held = text.slice(cut);
      return text.slice(0, cut);
    },
  },
  {
    name: 'cursor-zero-drops-first-message',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)',
    stream(c, lines) {
      // The backlog query uses "seq > cursor + 1" for cursor 0 (a 1-based fix applied twice): the first
      // retained message is skipped.
      const from = c.search.get('cursor') ?? c.headers['last-event-id'];
      if (!isStream(c) || from === undefined || from === null || from.trim() !== '0') return lines;
      const s = state(dropped, c, () => ({ done: false, dropping: false }));
      if (s.done && !s.dropping) return lines;
      const out: string[] = [];
      const all = lines.split('\n');
      all.forEach((line, i) => {
        if (!s.done && /^id: ?\d+$/.test(line)) {
          s.done = true;
          s.dropping = true;
        }
        if (s.dropping) {
          if (line === '' && i < all.length - 1) s.dropping = false;
          return;
        }
        out.push(line);
      });
      return out.join('\n');
    },
  },
  {
    name: 'resume-boundary-message-twice',
    statement: 'Events: Every message carries a consecutive number and arrives exactly once',
    stream(c, lines) {
      // A resumed stream subscribes to live messages before its backlog query has finished, so the
      // newest backlog message is also delivered as the first live one.
      if (!isStream(c) || (c.search.get('cursor') === null && c.headers['last-event-id'] === undefined)) return lines;
      const s = state(boundary, c, () => ({ done: false }));
      if (s.done) return lines;
      const start = Math.max(lines.lastIndexOf('\nid:') + 1, lines.startsWith('id:') ? 0 : -1);
      const end = start < 0 ? -1 : lines.indexOf('\n\n', start);
      if (start < 0 || end < 0 || (start === 0 && !lines.startsWith('id:'))) return lines;
      s.done = true;
      const event = lines.slice(start, end + 2);
      return lines.slice(0, end + 2) + event + lines.slice(end + 2);
    },
  },
  {
    name: 'signature-keyed-with-newline-terminated-key',
    statement: 'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key',
    sign(body, secret, t) {
      // The signer reads the key from a mounted secret file and keeps the file's trailing newline.
      return `t=${t},v1=${mac(`${secret}\n`, `${t}.${body}`)}`;
    },
  },
  {
    name: 'signature-clock-six-minutes-behind',
    statement:
      'Webhooks: the header value has the form t=<unix-seconds> — the receiver ... rejects the delivery when the difference between t and the current time exceeds 300 seconds',
    sign(body, secret, t) {
      // The delivery worker's host clock drifted (no time sync); t is consistent but 360 s in the past.
      const stale = t - 360;
      return `t=${stale},v1=${mac(secret, `${stale}.${body}`)}`;
    },
  },
  {
    name: 'signature-naive-keyed-sha256',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The signer hashes key and message together (SHA-256(key || t.body)) instead of computing an HMAC.
      return `t=${t},v1=${createHash('sha256').update(`${secret}${t}.${body}`, 'utf8').digest('hex')}`;
    },
  },
  {
    name: 'audit-entries-unchained',
    statement: 'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity',
    answer(c, a) {
      // Entries are written by parallel workers that each start from the genesis hash instead of the
      // previous entry's hash.
      const entries = a.json.data?.entries as Rec[] | undefined;
      if (!isAudit(c) || a.status !== 200 || !Array.isArray(entries)) return;
      for (const e of entries) if (typeof e.prevHash === 'string') e.prevHash = '0'.repeat(e.prevHash.length);
    },
  },
  {
    name: 'audit-proof-range-overshoots',
    statement: 'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity',
    answer(c, a) {
      // The proof's end is computed as fromSeq + count (an exclusive bound) but labelled inclusive.
      const d = a.json.data as Rec | undefined;
      const proof = d?.proof as Rec | undefined;
      if (!isAudit(c) || a.status !== 200 || !proof || !Array.isArray(d?.entries) || d.entries.length === 0) return;
      if (typeof proof.toSeq === 'number') proof.toSeq += 1;
    },
  },
];
