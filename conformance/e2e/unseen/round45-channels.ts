import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 45, part 4: stream, delivery log, redelivery and audit log. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isResume = (c: ProxyCall) => c.headers['last-event-id'] !== undefined || c.search.has('cursor');
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
const deliveriesOf = (c: ProxyCall, d: Rec | undefined) =>
  c.method === 'GET' && LOG.test(c.path) && Array.isArray(d?.deliveries) ? (d.deliveries as Rec[]) : undefined;
/** The position of each resumed stream among the target's resumptions (its chunks share it). */
const resumeIndex = new WeakMap<ProxyCall, number>();
const hexToBase64 = (h: unknown) =>
  typeof h === 'string' && /^[0-9a-f]+$/.test(h) ? Buffer.from(h, 'hex').toString('base64') : h;

export const ROUND45_CHANNELS: UnseenViolation[] = [
  {
    name: 'second-resume-ids-one-behind',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once; the client resumes without gaps (the second resumption in a row)',
    stream(c, lines) {
      // The resume cache subtracts the client's position once more each time it is reused by the same worker.
      home(c);
      if (!isStream(c) || !isResume(c)) return lines;
      let n = resumeIndex.get(c);
      if (n === undefined) {
        n = ((c.memory.get('r45-resumes') as number | undefined) ?? 0) + 1;
        c.memory.set('r45-resumes', n);
        resumeIndex.set(c, n);
      }
      return n < 2 ? lines : lines.replace(/^id: (\d+)$/gm, (_m, id: string) => `id: ${Number(id) - 1}`);
    },
  },
  {
    name: 'earlier-version-cursor-resume-ids-plus-one',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending the query parameter cursor (under Service-Version 2026-06-12)',
    stream(c, lines) {
      // The 2026-06-12 handler read cursor as "next number to send" and numbers from there.
      home(c);
      if (!isStream(c) || !earlier(c) || !c.search.has('cursor')) return lines;
      return lines.replace(/^id: (\d+)$/gm, (_m, id: string) => `id: ${Number(id) + 1}`);
    },
  },
  {
    name: 'delivery-log-signature-t-in-milliseconds',
    statement:
      'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature>; Deliveries are recorded in a delivery log (the recorded signature)',
    answer(c, a) {
      // The log writer stores the signature from the tracing span, where t is the span's millisecond clock.
      home(c);
      for (const d of deliveriesOf(c, a.json.data) ?? [])
        for (const at of Array.isArray(d?.attempts) ? (d.attempts as Rec[]) : [])
          if (typeof at?.signature === 'string')
            at.signature = at.signature.replace(/^t=(\d+),/, (_m, t: string) => `t=${Number(t) * 1000 + 417},`);
    },
  },
  {
    name: 'delivery-log-redelivery-attempts-numbered-one',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a delivery sent more than once)',
    answer(c, a) {
      // The log view reads the attempt number from the outbox row, which a redelivery copies unchanged.
      home(c);
      for (const d of deliveriesOf(c, a.json.data) ?? [])
        if (Array.isArray(d?.attempts) && d.attempts.length > 1) for (const at of d.attempts as Rec[]) at.n = 1;
    },
  },
  {
    name: 'redelivery-marked-replayed',
    statement:
      'Meta: replayed | true when the response comes from an earlier identical operation (a redelivery triggered on request)',
    answer(c, a) {
      // The redelivery handler reuses the replay renderer of the delivery it copies.
      home(c);
      if (c.method === 'POST' && REDELIVER.test(c.path) && a.status === 200 && a.json.meta) a.json.meta.replayed = true;
    },
  },
  {
    name: 'delivery-log-count-skips-failed',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log (its count, when some deliveries are pending or failed)',
    answer(c, a) {
      // The count comes from the "delivered" index, the list from the full table.
      home(c);
      const list = deliveriesOf(c, a.json.data);
      if (list && typeof a.json.data.count === 'number')
        a.json.data.count = list.filter((d) => d?.status === 'succeeded').length;
    },
  },
  {
    name: 'alt-audit-proof-hashes-base64',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (read under {alt_base_url})',
    answer(c, a) {
      // The alternate region's proof service encodes digests as base64 while entries keep hex.
      home(c);
      const proof = a.json.data?.proof as Rec | undefined;
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/audit-log') || !proof) return;
      proof.headHash = hexToBase64(proof.headHash);
      proof.anchorPrevHash = hexToBase64(proof.anchorPrevHash);
      if (proof.chainHead) proof.chainHead.hash = hexToBase64(proof.chainHead.hash);
    },
  },
];
