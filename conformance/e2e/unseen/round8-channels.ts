import { createHmac } from 'node:crypto';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';
import { perMessage } from './round8-support.ts';

/**
 * Round 8 of the unseen violations, part 3: the stream and webhook deliveries — both resume
 * positions sent together, the alternate address numbering its own stream, a backlog that keeps no
 * state changes, a signing key decoded before use, one cached key for every receiver, fractional
 * signature times, unsigned deliveries once a signing quota is spent, and a re-trigger that sends
 * the receiver's newest delivery instead of the one chosen.
 */
type Rec = Record<string, unknown>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const digits = (s: string | null | undefined) => (s != null && /^\d+$/.test(s.trim()) ? Number(s) : undefined);
/** The alternate region's broker started its sequence here. */
const ALT_OFFSET = 5000;
const deliveriesPath = new RegExp(`^${P('/webhooks')}/([^/]+)/deliveries$`);
const redeliverPath = new RegExp(`^(${P('/webhooks')}/([^/]+)/deliveries/)([^/]+)(/redeliver)$`);
/** A redelivery call and the delivery it asked for, when the hook sent another one on. */
const askedDelivery = new WeakMap<ProxyCall, string>();
/** When each stream call was opened: what it sends at once is its backlog. */
const opened = new WeakMap<ProxyCall, number>();

export const ROUND8_CHANNELS: UnseenViolation[] = [
  {
    name: 'both-resume-positions-ignored',
    statement:
      'Status stream: after an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read) — an SSE client reconnecting to a URL that carries cursor sends both',
    request(c) {
      // The two sources are merged as "exactly one of"; with both the position counts as ambiguous and is dropped.
      if (!isStream(c) || digits(c.search.get('cursor')) === undefined) return undefined;
      if (digits(c.headers['last-event-id']) === undefined) return undefined;
      c.search.delete('cursor');
      delete c.headers['last-event-id'];
      return undefined;
    },
  },
  {
    name: 'alt-stream-own-numbering',
    statement:
      'Status stream: every message carries a consecutive number; the client resumes without gaps by sending Last-Event-ID or cursor (the same interface under {alt_base_url}: one numbering)',
    request(c) {
      // The alternate region's broker numbers the same messages from its own start; positions are read in its numbering.
      if (!isStream(c) || c.base !== 'alt') return undefined;
      const cursor = digits(c.search.get('cursor'));
      const last = digits(c.headers['last-event-id']);
      if (cursor !== undefined) c.search.set('cursor', String(Math.max(0, cursor - ALT_OFFSET)));
      if (last !== undefined) c.headers['last-event-id'] = String(Math.max(0, last - ALT_OFFSET));
      return undefined;
    },
    stream(c, lines) {
      if (!isStream(c) || c.base !== 'alt') return lines;
      return lines.replace(/^id:[ \t]*(\d+)[ \t]*$/gm, (_m, id: string) => `id: ${Number(id) + ALT_OFFSET}`);
    },
  },
  {
    name: 'backlog-omits-state-changes',
    statement:
      'Status stream: GET /stream delivers state changes continuously; after an interruption, the client resumes without gaps (state changes of the backlog too)',
    stream: perMessage((c, message) => {
      // The replay table is filled by the creation path only; state changes are published live and never stored.
      if (!isStream(c)) return message;
      const resumed = digits(c.search.get('cursor')) !== undefined || digits(c.headers['last-event-id']) !== undefined;
      const started = opened.get(c) ?? 0;
      if (!resumed || Date.now() - started > 250) return message;
      return message.some((l) => /^event:\s*connection\.state_changed/.test(l)) ? [] : message;
    }),
    request(c) {
      if (isStream(c)) opened.set(c, Date.now());
      return undefined;
    },
  },
  {
    name: 'signature-key-base64-decoded',
    statement:
      'Webhooks: the signature is an HMAC with SHA-256, keyed with the signing key (the key as issued, not its base64 decoding)',
    // The sender decodes the part after the prefix as base64 (another provider's convention); the receiver holds the text.
    sign: (body, secret, t) => {
      const key = Buffer.from(secret.replace(/^[a-z]+_/, ''), 'base64url');
      return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
    },
  },
  {
    name: 'signer-caches-first-key',
    statement:
      'POST /webhooks: the signing key is issued ... in the response; Webhooks: the signature is an HMAC with SHA-256, keyed with the signing key (of the receiver it is sent to)',
    sign: (() => {
      // A memoised key loader keeps the first receiver's key and serves it for every later receiver.
      let first: string | undefined;
      return (body: string, secret: string, t: number) => {
        first ??= secret;
        return signWebhook(body, first, t);
      };
    })(),
  },
  {
    name: 'signature-t-fractional-seconds',
    statement: 'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature> (whole seconds)',
    // The sender formats the time as float seconds (Python's time.time()) and signs exactly that text.
    sign: (body, secret, t) => {
      const tf = `${t}.${String(Date.now() % 1000).padStart(3, '0')}`;
      return `t=${tf},v1=${createHmac('sha256', secret).update(`${tf}.${body}`).digest('hex')}`;
    },
  },
  {
    name: 'deliveries-after-fourth-unsigned',
    statement:
      'Webhooks: signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature> (every delivery, the fifth and later too)',
    deliver: (() => {
      // The signing service's burst quota runs out after four signatures; the dispatcher sends on without one.
      let n = 0;
      return (d: { body: string; headers: Record<string, string> }) => {
        n += 1;
        if (n <= 4) return;
        for (const k of Object.keys(d.headers)) if (/^t=\d+,v1=/.test(d.headers[k] ?? '')) delete d.headers[k];
      };
    })(),
  },
  {
    name: 'redelivery-sends-newest-delivery',
    statement:
      'Other paths: delivery log of webhooks (viewing deliveries and re-triggering them selectively); Webhooks: deliveries ... can be triggered again on request',
    request(c) {
      // The re-trigger answers the delivery asked for but enqueues the receiver's latest one (ORDER BY created DESC LIMIT 1).
      const m = redeliverPath.exec(c.path);
      const newest = m ? (c.memory.get(`newest:${m[2]}`) as string | undefined) : undefined;
      if (c.method !== 'POST' || !m || !newest || newest === m[3]) return undefined;
      askedDelivery.set(c, m[3] ?? '');
      c.path = `${m[1]}${newest}${m[4]}`;
      return undefined;
    },
    answer(c, a) {
      const listed = deliveriesPath.exec(c.path);
      const list = a.json.data?.deliveries as Rec[] | undefined;
      if (c.method === 'GET' && listed && a.status === 200 && Array.isArray(list)) {
        for (const x of list) c.memory.set(`delivery:${String(x.id)}`, structuredClone(x));
        // The log lists newest first.
        if (list[0]) c.memory.set(`newest:${listed[1]}`, String(list[0].id));
      }
      const asked = askedDelivery.get(c);
      const record = asked ? (c.memory.get(`delivery:${asked}`) as Rec | undefined) : undefined;
      if (record && a.status === 200 && a.json.data) a.json.data = { ...record, status: a.json.data.status };
    },
  },
];
