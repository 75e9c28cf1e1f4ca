import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 17 of the unseen violations, part 4: keys, the stream, webhooks and rate-limit headers — an
 * issued key reporting the previous call's operation, a replay without its scope label, each stream's
 * second message repeating the first one's number, a signature whose MAC was taken a second after its
 * t, a signature written with a 0x prefix, and denied decisions without rate-limit headers.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
/** Per stream call: the first id written, and how many ids were written. */
const firstId = new WeakMap<ProxyCall, string>();
const idCount = new WeakMap<ProxyCall, number>();

/** Rewrites the whole lines of a chunk one by one, keeping an unfinished tail as it is. */
const eachLine = (lines: string, f: (line: string) => string) => {
  const parts = lines.split('\n');
  const tail = parts.pop() ?? '';
  return parts.map((l) => `${f(l)}\n`).join('') + tail;
};

export const ROUND17_CHANNELS: UnseenViolation[] = [
  {
    name: 'issued-key-reports-previous-operation',
    statement:
      'POST /api/public/v1/idempotency-keys: data: idempotencyKey (string), operation (string), expiresAt (date-time) — Idempotency key result: operation, the operation named in the body',
    answer(c, a) {
      // The handler keeps the last operation in a module variable and answers before updating it.
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || !ok(a)) return;
      const d = a.json.data as Rec | undefined;
      if (!d || typeof d.operation !== 'string') return;
      const previous = c.memory.get('r17-last-operation') as string | undefined;
      c.memory.set('r17-last-operation', d.operation);
      if (previous !== undefined) d.operation = previous;
    },
  },
  {
    name: 'replay-drops-scope-label',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true (Connection: scopeLabel)',
    answer(c, a) {
      // The replay cache stores a projection of the row made for the list view, which has no label column.
      const d = a.json.data as Rec | undefined;
      if (isCreate(c) && ok(a) && a.json.meta?.replayed === true && d) delete d.scopeLabel;
    },
  },
  {
    name: 'stream-second-message-repeats-first-id',
    statement: 'Events: Every message carries a consecutive number and arrives exactly once',
    stream(c, lines) {
      // The counter is incremented after the second write of each connection instead of before it.
      if (c.method !== 'GET' || c.path !== P('/stream')) return lines;
      return eachLine(lines, (line) => {
        const m = /^id:\s*(.*?)\r?$/.exec(line);
        if (!m) return line;
        const n = (idCount.get(c) ?? 0) + 1;
        idCount.set(c, n);
        if (n === 1) firstId.set(c, m[1] ?? '');
        const first = firstId.get(c);
        return n === 2 && first !== undefined ? `id: ${first}` : line;
      });
    },
  },
  {
    name: 'signature-t-read-twice',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body (the header value t=<unix-seconds>,v1=…)',
    sign(body, secret, t) {
      // The signer reads the clock once for the MAC and again, a second later, for the header.
      const v1 = signWebhook(body, secret, t).split(',v1=')[1] ?? '';
      return `t=${t + 1},v1=${v1}`;
    },
  },
  {
    name: 'signature-hex-0x-prefixed',
    statement:
      'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature> … written as lowercase hex',
    sign(body, secret, t) {
      // The hex encoder is a generic "bytes to hex literal" helper from the firmware team.
      return signWebhook(body, secret, t).replace(',v1=', ',v1=0x');
    },
  },
  {
    name: 'denied-decisions-without-rate-limit-headers',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) — POST /api/public/v1/capabilities, a counted call',
    answer(c, a) {
      // Denied decisions leave through the policy engine's early return, which bypasses the header middleware.
      const d = a.json.data?.decision as Rec | undefined;
      if (c.method !== 'POST' || c.path !== P('/capabilities') || !ok(a) || d?.allowed !== false) return;
      for (const k of Object.keys(a.headers)) if (k.startsWith('x-ratelimit-')) delete a.headers[k];
    },
  },
];
