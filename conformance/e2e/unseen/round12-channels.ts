import { createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 12 of the unseen violations, part 4: the stream, webhooks and the audit log — message numbers
 * with a text prefix, signatures made with SHA-1, a signing key shown masked at creation, audit
 * entries re-rendered in local time, a page renumbered from 1, and no proof under the second address.
 */
type Rec = Record<string, any>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const auditPage = (c: ProxyCall, a: { status: number; json: Rec }) =>
  isAudit(c) && a.status === 200 && Array.isArray(a.json.data?.entries) ? (a.json.data.entries as Rec[]) : undefined;

/** An ISO instant written in UTC+01:00 (the same instant, other text). */
const inPlusOne = (iso: string) => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t + 3_600_000).toISOString().slice(0, -1)}+01:00`;
};

export const ROUND12_CHANNELS: UnseenViolation[] = [
  {
    name: 'stream-ids-prefixed',
    statement:
      'Events: Every message carries a consecutive number; the client resumes by sending Last-Event-ID or cursor (last number read)',
    request(c) {
      // The service understands its own prefixed ids when they come back.
      const last = c.headers['last-event-id'];
      if (isStream(c) && last?.startsWith('evt-')) c.headers['last-event-id'] = last.slice(4);
      return undefined;
    },
    // The event id is built from the message's storage key ("evt-<seq>") instead of the bare sequence number.
    stream: (c, lines) => (isStream(c) ? lines.replace(/^id:[ \t]*(\d+)[ \t]*$/gm, 'id: evt-$1') : lines),
  },
  {
    name: 'signature-hmac-sha1',
    statement: 'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key … written as lowercase hex',
    // The signer was copied from an older integration that used HMAC-SHA1.
    sign: (body, secret, t) => `t=${t},v1=${createHmac('sha1', secret).update(`${t}.${body}`).digest('hex')}`,
  },
  {
    name: 'signing-key-masked-at-creation',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once',
    answer(c, a) {
      // The response serializer applies the secret-masking used by the read endpoints to the creation answer too.
      if (c.method !== 'POST' || c.path !== P('/webhooks') || a.status !== 200 || !a.json.data) return;
      for (const [k, v] of Object.entries(a.json.data as Rec))
        if (typeof v === 'string' && /secret|signing/i.test(k) && v.length > 12)
          a.json.data[k] = `${v.slice(0, 10)}${'•'.repeat(8)}`;
    },
  },
  {
    name: 'audit-times-rendered-in-local-offset',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (the entries as sent are the entries the proof covers)',
    answer(c, a) {
      // The API layer re-formats timestamps in the server's zone after the hashes were computed over UTC text.
      for (const e of auditPage(c, a) ?? []) if (typeof e.at === 'string') e.at = inPlusOne(e.at);
    },
  },
  {
    name: 'audit-page-renumbered-from-one',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (each entry keeps its place in the chain)',
    answer(c, a) {
      // The paging helper numbers the page's rows instead of passing the stored sequence through.
      const entries = auditPage(c, a);
      if (!entries || entries.length < 2) return;
      const seqs = entries.map((e) => e.seq).filter((s): s is number => typeof s === 'number');
      if (seqs.length !== entries.length || Math.min(...seqs) <= 1) return;
      const newestFirst = (seqs[0] ?? 0) > (seqs[seqs.length - 1] ?? 0);
      entries.forEach((e, i) => {
        e.seq = newestFirst ? entries.length - i : i + 1;
      });
    },
  },
  {
    name: 'alt-audit-without-proof',
    statement:
      'Network Connections Service Interface: The same interface is also offered under a second main-domain address (GET /audit-log: including a proof of integrity)',
    answer(c, a) {
      // The second address runs an older build of the audit module that predates the proof.
      if (c.base === 'alt' && auditPage(c, a) && a.json.data) delete a.json.data.proof;
    },
  },
];
