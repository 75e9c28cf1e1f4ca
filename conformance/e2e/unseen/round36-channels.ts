import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 36 of the unseen violations, part 4: channels — earlier-version resumed streams that send each
 * message twice, a delivery log that never shows redelivery attempts, delivery logs found by a webhook id
 * in another case, a second tenant's deliveries without attempts, backward audit pages that repeat their
 * boundary entry, earlier-version audit pages without a proof, and delivery bodies escaped after signing.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const EARLIER = '2026-06-12';
const DELIVERIES = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/([^/]+)\/redeliver$/;
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const deliveriesOf = (c: ProxyCall, a: { status: number; json: Rec }) =>
  c.method === 'GET' && DELIVERIES.test(c.path) && a.status === 200 && Array.isArray(a.json.data?.deliveries)
    ? (a.json.data.deliveries as Rec[])
    : [];

export const ROUND36_CHANNELS: UnseenViolation[] = [
  {
    name: 'earlier-version-resumed-messages-sent-twice',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a resumed stream with Service-Version 2026-06-12 too)',
    stream(c, lines) {
      // The 2026-06-12 adapter replays the backlog and also subscribes from the same position: both write.
      const resumed = c.search.has('cursor') || c.headers['last-event-id'] !== undefined;
      if (c.method !== 'GET' || c.path !== P('/stream') || c.headers['service-version'] !== EARLIER || !resumed)
        return lines;
      return lines.replace(/(?:^|(?<=\n\n))((?:[^\n]+\n)+\n)/g, (block) =>
        /^id: /m.test(block) ? block + block : block,
      );
    },
  },
  {
    name: 'delivery-log-omits-redelivery-attempts',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (the log shows the attempt a redelivery made)',
    answer(c, a) {
      // Redeliveries are sent by a separate worker that writes to a table the log view does not read.
      home(c);
      const seen = (c.memory.get('r36-attempts') as Map<string, number> | undefined) ?? new Map<string, number>();
      const frozen = (c.memory.get('r36-frozen') as Map<string, number> | undefined) ?? new Map<string, number>();
      c.memory.set('r36-attempts', seen);
      c.memory.set('r36-frozen', frozen);
      const redo = c.method === 'POST' ? REDELIVER.exec(c.path) : null;
      if (redo?.[1] && a.status === 200 && !frozen.has(redo[1])) {
        const before = seen.get(redo[1]) ?? Math.max(0, ((a.json.data?.attempts ?? []) as unknown[]).length - 1);
        frozen.set(redo[1], before);
      }
      for (const d of deliveriesOf(c, a)) {
        if (!d || !Array.isArray(d.attempts)) continue;
        const cap = frozen.get(String(d.id));
        if (cap === undefined) seen.set(String(d.id), d.attempts.length);
        else d.attempts = d.attempts.slice(0, cap);
      }
    },
  },
  {
    name: 'delivery-log-webhook-id-case-insensitive',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier (the delivery log of a webhook id in other letter case)',
    request(c) {
      // The receiver lookup of the log view goes through a case-insensitive index of the receiver ids.
      home(c);
      const m = c.method === 'GET' ? DELIVERIES.exec(c.path) : null;
      const known = (c.memory.get('r36-receivers') as Set<string> | undefined) ?? new Set<string>();
      const id = m?.[1];
      const match = id && !known.has(id) ? [...known].find((k) => k.toLowerCase() === id.toLowerCase()) : undefined;
      if (match) c.path = P(`/webhooks/${match}/deliveries`);
      return undefined;
    },
    answer(c, a) {
      if (c.path !== P('/webhooks') || a.status !== 200) return;
      const known = (c.memory.get('r36-receivers') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('r36-receivers', known);
      const listed = (c.method === 'POST' ? [a.json.data] : (a.json.data?.webhooks ?? [])) as Rec[];
      for (const w of listed) if (typeof w?.id === 'string') known.add(w.id);
    },
  },
  {
    name: 'second-tenant-deliveries-without-attempts',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log (a second tenant’s log records what was sent, attempts included)',
    answer(c, a) {
      // The second tenant's attempts are kept in a partition the log view was never granted to read.
      const second = isSecond(c);
      if (second) for (const d of deliveriesOf(c, a)) if (d && Array.isArray(d.attempts)) d.attempts = [];
    },
  },
  {
    name: 'audit-backward-page-includes-boundary-entry',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (paging backwards shows each entry once)',
    request(c) {
      // The older-page query uses seq <= before instead of seq < before.
      home(c);
      const before = c.search.get('before');
      if (isAudit(c) && before && /^\d+$/.test(before)) c.search.set('before', String(Number(before) + 1));
      return undefined;
    },
  },
  {
    name: 'earlier-version-audit-without-proof',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The 2026-06-12 answer model predates the proof and drops fields it does not declare.
      home(c);
      if (isAudit(c) && a.status === 200 && c.headers['service-version'] === EARLIER && a.json.data)
        delete a.json.data.proof;
    },
  },
  {
    name: 'delivery-body-php-escaped-after-signing',
    statement:
      'Webhooks: Signature rule: … an HMAC with SHA-256 … over the text <t>, a dot, and the unchanged raw request body (slashes and non-ASCII sent as signed)',
    deliver(d) {
      // An outgoing proxy re-encodes JSON bodies with PHP-style escaping after the service signed them.
      d.body = d.body
        .replace(/\//g, '\\/')
        .replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    },
  },
];
