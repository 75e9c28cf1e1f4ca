import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P, refuse } from './proxy-helpers.ts';

/**
 * Round 35 of the unseen violations, part 4: channels — earlier-version stream ids as UUIDs, resumed
 * streams under the alternate address that lose every other message, a second tenant's redeliveries
 * refused, a delivery log that a read drains, alternate audit request ids prefixed after hashing, a
 * second tenant's audit actions translated after hashing, and earlier-version receivers without a key.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const EARLIER = '2026-06-12';
const DELIVERIES = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const REDELIVER = /^(\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/)([^/]+)(\/redeliver)$/;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const entries = (a: { json: Rec }) => (a.json.data?.entries ?? []) as Rec[];
/** Streams whose current message is being dropped (a message spans several lines and chunks). */
const dropping = new WeakMap<ProxyCall, boolean>();

export const ROUND35_CHANNELS: UnseenViolation[] = [
  {
    name: 'earlier-version-stream-ids-as-uuids',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (with Service-Version 2026-06-12 too)',
    stream(c, lines) {
      // The 2026-06-12 stream adapter writes the message's storage key, a UUID, into the id field.
      if (!isStream(c) || c.headers['service-version'] !== EARLIER) return lines;
      return lines.replace(/^id: (\d+)$/gm, (_m, n: string) => `id: 00000000-0000-4000-8000-${n.padStart(12, '0')}`);
    },
  },
  {
    name: 'alt-resumed-stream-skips-odd-numbers',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (under {alt_base_url} too)',
    stream(c, lines) {
      // The alternate region reads a resumed feed from one of two shards, which holds only the even numbers.
      const resumed = c.search.has('cursor') || c.headers['last-event-id'] !== undefined;
      if (c.base !== 'alt' || !isStream(c) || !resumed) return lines;
      const out: string[] = [];
      // A chunk ends with a line break, so the split's last piece is no blank line of the stream.
      const parts = lines.split('\n');
      const tail = parts.pop() ?? '';
      for (const line of parts) {
        const id = /^id: (\d+)$/.exec(line);
        if (id) dropping.set(c, Number(id[1]) % 2 === 1);
        if (!dropping.get(c)) out.push(line);
        if (line === '') dropping.set(c, false);
      }
      return out.map((l) => `${l}\n`).join('') + tail;
    },
  },
  {
    name: 'second-tenant-redelivery-forbidden',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a second tenant’s deliveries too)',
    request(c) {
      // The redelivery permission is checked against the client's first tenant only, so nothing is sent.
      const second = isSecond(c);
      const m = REDELIVER.exec(c.path);
      if (second && c.method === 'POST' && m) c.path = `${m[1]}${m[2]}-denied${m[3]}`;
      return undefined;
    },
    answer(c, a) {
      if (c.path.endsWith('-denied/redeliver') && a.status === 404)
        refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
  {
    name: 'delivery-log-drained-by-first-read',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a second read of the log shows them still)',
    answer(c, a) {
      // The log is read from a queue that acknowledges (and so removes) what it has handed out.
      home(c);
      const m = DELIVERIES.exec(c.path);
      if (c.method !== 'GET' || !m || a.status !== 200 || !Array.isArray(a.json.data?.deliveries)) return;
      const key = `r35-drained:${c.headers['x-service-tenant'] ?? ''}:${m[1]}`;
      const shown = (c.memory.get(key) as Set<string> | undefined) ?? new Set<string>();
      c.memory.set(key, shown);
      const fresh = (a.json.data.deliveries as Rec[]).filter((d) => !shown.has(String(d?.id)));
      for (const d of fresh) shown.add(String(d?.id));
      a.json.data.deliveries = fresh;
      if (typeof a.json.data.count === 'number') a.json.data.count = fresh.length;
    },
  },
  {
    name: 'alt-audit-request-ids-prefixed-after-hashing',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (under {alt_base_url} the entries as served match their hashes too)',
    answer(c, a) {
      // The alternate region tags request ids with its region name on the way out, after the chain was hashed.
      home(c);
      if (c.base !== 'alt' || !isAudit(c) || a.status !== 200) return;
      for (const e of entries(a)) if (typeof e?.requestId === 'string') e.requestId = `eu2-${e.requestId}`;
    },
  },
  {
    name: 'second-tenant-audit-actions-translated-after-hashing',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (a second tenant’s entries as served match their hashes)',
    answer(c, a) {
      // The second tenant has a display locale, and the translation step runs over the stored, hashed entries.
      const second = isSecond(c);
      if (!second || !isAudit(c) || a.status !== 200) return;
      for (const e of entries(a))
        if (typeof e?.action === 'string') {
          const text = e.action.replace(/[._]/g, ' ');
          e.action = text.charAt(0).toUpperCase() + text.slice(1);
        }
    },
  },
  {
    name: 'earlier-version-webhook-registration-lacks-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once (with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The 2026-06-12 answer model predates the signing key and drops fields it does not declare.
      home(c);
      if (c.method !== 'POST' || c.path !== P('/webhooks') || a.status !== 200) return;
      if (c.headers['service-version'] === EARLIER && a.json.data) delete a.json.data.signingSecret;
    },
  },
];
