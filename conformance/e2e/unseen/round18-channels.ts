import { createHash, createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 18 of the unseen violations, part 4: the stream, webhooks, keys, the audit log and headers —
 * each message's id written after its dispatch (so it lands on the next message), a signature over the
 * body's digest, issued keys longer than the pattern allows for long operations, an audit page of one
 * entry answered empty, a token without the Bearer scheme accepted, and an idempotency key taken from
 * the query.
 */
type Rec = Record<string, any>;
/** Per stream call: the id waiting to be written after the current message. */
const heldId = new WeakMap<ProxyCall, string>();

/** Rewrites the whole lines of a chunk one by one, keeping an unfinished tail as it is. */
const eachLine = (lines: string, f: (line: string) => string) => {
  const parts = lines.split('\n');
  const tail = parts.pop() ?? '';
  return parts.map((l) => f(l)).join('') + tail;
};

export const ROUND18_CHANNELS: UnseenViolation[] = [
  {
    name: 'stream-id-written-after-dispatch',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (Server-Sent Events: the id belongs to the message it is written in)',
    stream(c, lines) {
      // The writer flushes the message and then records the cursor with an id line, which SSE assigns to the next message.
      if (c.method !== 'GET' || c.path !== P('/stream')) return lines;
      return eachLine(lines, (line) => {
        const m = /^id:\s?(.*?)\r?$/.exec(line);
        if (m) {
          heldId.set(c, m[1] ?? '');
          return '';
        }
        const held = heldId.get(c);
        if (line.replace(/\r$/, '') === '' && held !== undefined) {
          heldId.delete(c);
          return `\nid: ${held}\n`;
        }
        return `${line}\n`;
      });
    },
  },
  {
    name: 'signature-over-body-digest',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The signer hashes the body first so that large deliveries need not be held in memory twice.
      const digest = createHash('sha256').update(body, 'utf8').digest('hex');
      return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${digest}`).digest('hex')}`;
    },
  },
  {
    name: 'long-operation-issued-key-over-128',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ — POST /api/public/v1/idempotency-keys: data: idempotencyKey (operation of up to 80 characters)',
    answer(c, a) {
      // Issued keys are "<operation>:<uuid>:<uuid>", which passes 128 characters for long operation names.
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200) return;
      const d = a.json.data as Rec | undefined;
      const op = (c.body as Rec | undefined)?.operation;
      if (!d || typeof d.idempotencyKey !== 'string' || typeof op !== 'string' || op.length < 48) return;
      d.idempotencyKey = `${op.replace(/[^A-Za-z0-9._:-]/g, '-')}:${d.idempotencyKey}:${d.idempotencyKey}`;
    },
  },
  {
    name: 'audit-page-of-one-empty',
    statement: 'GET /api/public/v1/audit-log: Query: limit (number of entries)',
    answer(c, a) {
      // The page query uses "seq > head - limit" with an exclusive bound, which returns nothing for a limit of one.
      if (c.method !== 'GET' || c.path !== P('/audit-log') || c.search.get('limit') !== '1') return;
      const d = a.json.data as Rec | undefined;
      if (a.status !== 200 || !Array.isArray(d?.entries) || d.entries.length === 0) return;
      d.entries = [];
      if (typeof d.count === 'number') d.count = 0;
    },
  },
  {
    name: 'token-without-bearer-scheme-accepted',
    statement:
      'Authentication: Authorization | Bearer token obtained through an OAuth flow (unauthorized | 401 otherwise)',
    request(c) {
      // A lenient header parser takes the last word of Authorization as the token, whatever the scheme.
      const auth = c.headers.authorization;
      if (auth && !/^bearer\s/i.test(auth)) {
        const word = auth.trim().split(/\s+/).pop();
        if (word) c.headers.authorization = `Bearer ${word}`;
      }
      return undefined;
    },
  },
  {
    name: 'idempotency-key-from-query-accepted',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required ... A missing key yields idempotency_required',
    request(c) {
      // The key reader falls back to a query parameter kept for an old form-post integration.
      if (!isCreate(c) || c.headers['idempotency-key']) return undefined;
      const fromQuery = c.search.get('idempotencyKey') ?? c.search.get('idempotency_key') ?? c.search.get('key');
      if (!fromQuery) return undefined;
      c.headers['idempotency-key'] = fromQuery;
      for (const k of ['idempotencyKey', 'idempotency_key', 'key']) c.search.delete(k);
      return undefined;
    },
  },
];
