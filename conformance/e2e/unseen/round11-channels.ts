import { createHmac } from 'node:crypto';
import { GENESIS_HASH } from '../../../simulator/contract/audit-hash.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';
import { failure } from './round6-support.ts';

/**
 * Round 11 of the unseen violations, part 4: the stream, webhook deliveries and the audit log —
 * retries signed over an empty body, a second v1 signature during a key rotation, a burst of
 * messages sent as one event, a cursor backlog without numbers, deliveries sent twice missing
 * from the delivery log, every page's proof anchored at the start of the chain, and a large page that crashes.
 */
type Rec = Record<string, any>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
const idOf = (message: string[]) => /^id:[ \t]*(\d+)/.exec(message.find((l) => l.startsWith('id:')) ?? '')?.[1];

/** Per stream call: the text of a message not yet complete. */
const partial = new WeakMap<ProxyCall, string>();
/**
 * A stream hook that sees all complete messages of a chunk together (each as its lines), so an edit
 * can merge or drop them; the YAML download and other non-JSON answers pass unchanged.
 */
const perChunk = (edit: (c: ProxyCall, messages: string[][]) => string[][]) => (c: ProxyCall, chunk: string) => {
  if (!isStream(c)) return chunk;
  const text = (partial.get(c) ?? '') + chunk;
  const cut = text.lastIndexOf('\n\n');
  if (cut < 0) {
    partial.set(c, text);
    return '';
  }
  partial.set(c, text.slice(cut + 2));
  const messages = text
    .slice(0, cut)
    .split('\n\n')
    .map((m) => m.split('\n'));
  return edit(c, messages)
    .map((m) => `${m.join('\n')}\n\n`)
    .join('');
};
/** Per stream call: the newest message number any stream had carried when it was opened. */
const headAtOpen = new WeakMap<ProxyCall, number>();

export const ROUND11_CHANNELS: UnseenViolation[] = [
  {
    name: 'signature-over-empty-body-on-retries',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256 … over the text <t>, a dot, and the unchanged raw request body (a retried or re-triggered delivery too)',
    deliver(d, resign) {
      // The retry worker signs before it has re-read the stored payload, i.e. over "<t>." alone.
      const attempt = Number(d.headers['ncs-attempt'] ?? '1');
      if (attempt > 1 && d.headers['ncs-signature'] !== undefined) d.headers['ncs-signature'] = resign('');
    },
  },
  {
    name: 'signature-second-v1-during-rotation',
    statement: 'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature>',
    // A half-finished key rotation signs with the new and the retired key and lists both signatures.
    sign: (body, secret, t) =>
      `t=${t},v1=${hmac(secret, `${t}.${body}`)},v1=${hmac(`${secret}:retired`, `${t}.${body}`)}`,
  },
  {
    name: 'stream-burst-sent-as-one-event',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (each message its own number, in a burst too)',
    // Messages ready at the same time are flushed as one event, numbered with the newest of them.
    stream: perChunk((_c, messages) => {
      const out: string[][] = [];
      for (const m of messages) {
        const prev = out[out.length - 1];
        if (prev && idOf(prev) && idOf(m) && !prev.includes('')) {
          const data = m.filter((l) => l.startsWith('data:'));
          out[out.length - 1] = [...prev.map((l) => (l.startsWith('id:') ? `id: ${idOf(m)}` : l)), ...data, ''];
        } else out.push(m);
      }
      // The marker '' keeps a merged event from swallowing a third message; it is dropped on output.
      return out.map((m) => m.filter((l) => l !== ''));
    }),
  },
  {
    name: 'cursor-backlog-unnumbered',
    statement:
      'Status stream: Every message carries a consecutive number; after an interruption the client resumes by sending cursor (the messages of that backlog are numbered too)',
    request(c) {
      if (isStream(c)) headAtOpen.set(c, (c.memory.get('head') as number | undefined) ?? 0);
      return undefined;
    },
    // The catch-up query for ?cursor= selects the payload columns but not the sequence column.
    stream: perChunk((c, messages) =>
      messages.map((m) => {
        const id = idOf(m);
        if (!id) return m;
        c.memory.set('head', Math.max(Number(id), (c.memory.get('head') as number | undefined) ?? 0));
        const backlog = Number(id) <= (headAtOpen.get(c) ?? 0);
        return c.search.has('cursor') && backlog ? m.filter((l) => !l.startsWith('id:')) : m;
      }),
    ),
  },
  {
    name: 'resent-deliveries-missing-from-log',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a delivery sent more than once, e.g. triggered again, is still in the log)',
    answer(c, a) {
      // The log joins deliveries to their attempts 1:1, so a delivery sent more than once drops out of it.
      const list = a.json.data?.deliveries;
      if (c.method !== 'GET' || !/\/webhooks\/[^/]+\/deliveries$/.test(c.path) || !Array.isArray(list)) return;
      const kept = (list as Rec[]).filter((x) => !Array.isArray(x.attempts) || x.attempts.length <= 1);
      a.json.data.deliveries = kept;
      if (typeof a.json.data.count === 'number') a.json.data.count = kept.length;
    },
  },
  {
    name: 'audit-page-proof-anchored-at-genesis',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (a page that starts later in the chain is anchored where it starts)',
    answer(c, a) {
      // The proof builder always starts from the genesis hash, whatever the page's first entry links to.
      const proof = a.json.data?.proof;
      if (!isAudit(c) || a.status !== 200 || !proof || typeof proof.fromSeq !== 'number' || proof.fromSeq <= 1) return;
      proof.anchorPrevHash = GENESIS_HASH;
    },
  },
  {
    name: 'audit-large-page-500',
    statement:
      'GET /api/public/v1/audit-log: Query: limit (number of entries) (Errors: internal | 500 is a fault on the service side — a page size the log does not serve is refused 400 or capped)',
    request(c) {
      // Above 40 entries the page query exceeds the proof builder's fixed buffer and throws.
      const limit = c.search.get('limit');
      if (!isAudit(c) || !c.headers.authorization || !limit || !/^\d+$/.test(limit) || Number(limit) <= 40)
        return undefined;
      return failure(c, 500, 'internal', 'A fault on the service side.');
    },
  },
];
