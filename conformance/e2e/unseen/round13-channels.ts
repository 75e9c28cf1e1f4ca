import { createHmac, randomUUID } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 13 of the unseen violations, part 4: the stream, webhook signatures and the audit log — a
 * resumed stream that goes silent after its backlog, t written as an ISO date, long bodies signed
 * over their first 128 characters only, an audit page with its two newest entries swapped, and a
 * creation answered with a request id that the audit log never saw.
 */
type Rec = Record<string, any>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
/** Stream calls whose backlog has gone out. */
const backlogSent = new WeakSet<ProxyCall>();

export const ROUND13_CHANNELS: UnseenViolation[] = [
  {
    name: 'resumed-stream-silent-after-backlog',
    statement:
      'Events: GET /api/public/v1/stream delivers state changes continuously … After an interruption, the client resumes without gaps',
    stream(c, lines) {
      // A resumed connection is served by the replay worker, which sends the backlog and never subscribes to live changes.
      if (!isStream(c)) return lines;
      const resumed = c.search.get('cursor') !== null || c.headers['last-event-id'] !== undefined;
      if (!resumed) return lines;
      // The first lines that carry messages are the backlog; everything after it is live.
      if (backlogSent.has(c)) return '';
      if (/^id:/m.test(lines)) backlogSent.add(c);
      return lines;
    },
  },
  {
    name: 'signature-t-as-iso-date',
    statement: 'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature>',
    // The signer stamps the delivery with the ISO text of its creation time (and signs that text consistently).
    sign(body, secret, t) {
      const iso = new Date(t * 1000).toISOString();
      return `t=${iso},v1=${hmac(secret, `${iso}.${body}`)}`;
    },
  },
  {
    name: 'long-body-signed-over-prefix',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body',
    // The signer reads the body through a fixed 128-character preview buffer meant for the delivery log.
    sign: (body, secret, t) => `t=${t},v1=${hmac(secret, `${t}.${body.slice(0, 128)}`)}`,
  },
  {
    name: 'audit-page-newest-pair-swapped',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (entries in chain order)',
    answer(c, a) {
      // The page is sorted by `at`, and two changes within the same millisecond come out in either order.
      if (c.method !== 'GET' || c.path !== P('/audit-log') || a.status !== 200) return;
      const entries = a.json.data?.entries as Rec[] | undefined;
      if (!Array.isArray(entries) || entries.length < 2) return;
      const [x, y] = entries;
      entries[0] = y as Rec;
      entries[1] = x as Rec;
    },
  },
  {
    name: 'creation-request-id-not-logged',
    statement:
      'Meta: requestId | identifier of this call, quoted for support queries (GET /audit-log: traceable changes of the tenant)',
    answer(c, a) {
      // The response layer mints its own request id after the audit writer has recorded the gateway's one.
      if (
        isCreate(c) &&
        a.status === 200 &&
        a.json.meta?.replayed !== true &&
        typeof a.json.meta?.requestId === 'string'
      )
        a.json.meta.requestId = `req_${randomUUID().replaceAll('-', '')}`;
    },
  },
];
