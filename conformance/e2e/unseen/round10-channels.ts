import { createHmac } from 'node:crypto';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';
import { perMessage } from './round8-support.ts';

/**
 * Round 10 of the unseen violations, part 4: the stream and webhook deliveries — concurrent readers
 * sharing one consumer group, a cursor read with parseInt, the first live message after a resume
 * lost, numbers kept per message kind, and signatures over the wrong text, stamped after signing or
 * keyed with one key per tenant.
 */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const resumed = (c: ProxyCall) => c.search.has('cursor') || c.headers['last-event-id'] !== undefined;
/** Per stream call: the newest message number any stream had carried when it was opened. */
const headAtOpen = new WeakMap<ProxyCall, number>();
const noteOpen = (c: ProxyCall) => {
  if (isStream(c)) headAtOpen.set(c, (c.memory.get('head') as number | undefined) ?? 0);
  return undefined;
};
/** Notes a message's number as carried; true when it is newer than anything carried when `c` was opened. */
const isNew = (c: ProxyCall, id: number) => {
  c.memory.set('head', Math.max(id, (c.memory.get('head') as number | undefined) ?? 0));
  return id > (headAtOpen.get(c) ?? 0);
};
/** Resumed stream calls that already lost their first new message. */
const lostOne = new WeakSet<ProxyCall>();
const idOf = (message: string[]) => /^id:[ \t]*(\d+)/.exec(message.find((l) => l.startsWith('id:')) ?? '')?.[1];
const kindOf = (message: string[]) => /^event:[ \t]*(\S+)/.exec(message.find((l) => l.startsWith('event:')) ?? '')?.[1];
/** A per-message stream hook that leaves every other non-JSON answer (the YAML document) alone. */
const onStream = (edit: (c: ProxyCall, message: string[]) => string[]) => {
  const hook = perMessage(edit);
  return (c: ProxyCall, lines: string) => (isStream(c) ? hook(c, lines) : lines);
};
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

/** Per message kind: original number → number within the kind, and back. */
interface KindNumbers {
  next: Map<string, number>;
  forward: Map<number, number>;
  back: Map<number, number>;
}
const kindNumbers = (c: ProxyCall): KindNumbers => {
  const k = c.memory.get('kind-numbers') as KindNumbers | undefined;
  if (k) return k;
  const fresh = { next: new Map(), forward: new Map(), back: new Map() };
  c.memory.set('kind-numbers', fresh);
  return fresh;
};

export const ROUND10_CHANNELS: UnseenViolation[] = [
  {
    name: 'concurrent-streams-share-messages',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (to every reader of the stream, two at a time too)',
    request: noteOpen,
    stream: onStream((c, message) => {
      // Every open stream joins one consumer group: a message newer than a reader's start goes to whichever reader takes it first.
      const id = idOf(message);
      if (!id || !isNew(c, Number(id))) return message;
      const claims = (c.memory.get('claims') as Map<string, ProxyCall> | undefined) ?? new Map<string, ProxyCall>();
      c.memory.set('claims', claims);
      const owner = claims.get(id);
      if (!owner) claims.set(id, c);
      return !owner || owner === c ? message : [];
    }),
  },
  {
    name: 'cursor-read-with-parse-int',
    statement: 'GET /api/public/v1/stream: cursor | query | integer, minimum 0 (Limits: cursor | integer, minimum 0)',
    request(c) {
      // parseInt takes the leading digits of "2.5" or "7abc" and ignores the rest.
      const cursor = c.search.get('cursor');
      if (isStream(c) && cursor !== null && !/^\d+$/.test(cursor) && /^\d+/.test(cursor))
        c.search.set('cursor', String(Number.parseInt(cursor, 10)));
      return undefined;
    },
  },
  {
    name: 'resume-drops-first-new-message',
    statement:
      'Status stream: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor',
    request: noteOpen,
    stream: onStream((c, message) => {
      // The backlog is read before subscribing; the first message newer than the fan-out's head at reconnect is in neither.
      const id = idOf(message);
      if (!id || !isNew(c, Number(id)) || !resumed(c) || lostOne.has(c)) return message;
      lostOne.add(c);
      return [];
    }),
  },
  {
    name: 'stream-numbered-per-message-kind',
    statement:
      'Events: Every message carries a consecutive number (one numbering for the stream, every kind of message)',
    request(c) {
      // Each message kind is its own topic with its own sequence; a position is read in the numbering of the newest kind.
      if (!isStream(c)) return undefined;
      const k = kindNumbers(c);
      const map = (v: string | undefined | null) => (v && /^\d+$/.test(v) ? String(k.back.get(Number(v)) ?? v) : v);
      const cursor = c.search.get('cursor');
      if (cursor !== null) c.search.set('cursor', map(cursor) ?? cursor);
      const last = c.headers['last-event-id'];
      if (last !== undefined) c.headers['last-event-id'] = map(last) ?? last;
      return undefined;
    },
    stream: onStream((c, message) => {
      const id = idOf(message);
      if (!isStream(c) || !id) return message;
      const k = kindNumbers(c);
      const original = Number(id);
      let n = k.forward.get(original);
      if (n === undefined) {
        const kind = kindOf(message) ?? 'message';
        n = (k.next.get(kind) ?? 0) + 1;
        k.next.set(kind, n);
        k.forward.set(original, n);
        k.back.set(n, Math.max(original, k.back.get(n) ?? 0));
      }
      return message.map((l) => (l.startsWith('id:') ? `id: ${n}` : l));
    }),
  },
  {
    name: 'signature-over-body-then-t',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body',
    // The signer joins its parts in the order of its arguments (body first).
    sign: (body, secret, t) => `t=${t},v1=${hmac(secret, `${body}.${t}`)}`,
  },
  {
    name: 'signature-mac-over-milliseconds',
    statement:
      'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature>; the HMAC is over the text <t>, a dot, and the raw body (the same t)',
    // The header shows whole seconds, but the MAC is computed over the millisecond timestamp the job carries.
    sign: (body, secret, t) => `t=${t},v1=${hmac(secret, `${t * 1000 + (Date.now() % 1000)}.${body}`)}`,
  },
  {
    name: 'later-attempts-stamped-after-signing',
    statement:
      'Webhooks: the signature is an HMAC … over … the unchanged raw request body (of every delivery; Deliveries … can be triggered again on request)',
    deliver: (() => {
      // The retry middleware adds an attempt marker to the payload after the dispatcher signed it.
      const seen = new Set<string>();
      return (d: { body: string; headers: Record<string, string> }) => {
        const again = seen.has(d.body);
        seen.add(d.body);
        if (again && d.body.startsWith('{')) d.body = `{"redelivery":true,${d.body.slice(1)}`;
      };
    })(),
  },
  (() => {
    // One signing secret per tenant: every receiver after the first is given (and signed with) the tenant's first one.
    const sameAs = new Map<string, string>();
    return {
      name: 'signing-key-shared-by-tenant-receivers',
      statement:
        'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once (each receiver its own)',
      answer(c, a) {
        const d = a.json.data;
        if (
          c.method !== 'POST' ||
          c.path !== P('/webhooks') ||
          a.status !== 200 ||
          typeof d?.signingSecret !== 'string'
        )
          return;
        const slot = `secret:${c.headers['x-service-tenant'] ?? ''}`;
        const first = c.memory.get(slot) as string | undefined;
        if (!first) c.memory.set(slot, d.signingSecret);
        else if (first !== d.signingSecret) {
          sameAs.set(d.signingSecret, first);
          d.signingSecret = first;
        }
      },
      sign: (body, secret, t) => signWebhook(body, sameAs.get(secret) ?? secret, t),
    } satisfies UnseenViolation;
  })(),
];
