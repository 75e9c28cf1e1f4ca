import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 34 of the unseen violations, part 4: channels — a delivery log answered without meta.version,
 * earlier-version streams that ignore the resume position, a second tenant's stream numbered in steps
 * of two, a second tenant's empty delivery log, redeliveries refused under the alternate address, audit
 * times cut to seconds after hashing, and delivery log entries that carry the receiver's signing key.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const DELIVERIES = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const REDELIVER = /^(\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/)([^/]+)(\/redeliver)$/;
const isLog = (c: ProxyCall) => c.method === 'GET' && DELIVERIES.test(c.path);
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');

export const ROUND34_CHANNELS: UnseenViolation[] = [
  {
    name: 'delivery-log-meta-lacks-version',
    statement: 'Meta: version | string | yes | interface version (the delivery log’s answer too)',
    answer(c, a) {
      // The delivery log was added later with its own envelope helper that only writes requestId and at.
      home(c);
      if (isLog(c) && a.status === 200 && a.json.meta) delete a.json.meta.version;
    },
  },
  {
    name: 'earlier-version-stream-ignores-resume-position',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (with Service-Version 2026-06-12 too)',
    request(c) {
      // The 2026-06-12 stream handler is an older copy that never read the resume position.
      if (!isStream(c) || c.headers['service-version'] !== '2026-06-12') return undefined;
      c.search.delete('cursor');
      delete c.headers['last-event-id'];
      return undefined;
    },
  },
  {
    name: 'second-tenant-stream-numbered-in-twos',
    statement: 'Events: Every message carries a consecutive number (in a second tenant’s stream too)',
    stream(c, lines) {
      // The second tenant's feed shares a counter with a mirror feed, so every other number goes there.
      const second = isSecond(c);
      if (!second || !isStream(c)) return lines;
      return lines.replace(/^id: (\d+)$/gm, (_m, n: string) => `id: ${Number(n) * 2}`);
    },
  },
  {
    name: 'second-tenant-delivery-log-empty',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a second tenant’s deliveries too)',
    answer(c, a) {
      // The log writer files deliveries under the client's first tenant, so a second tenant reads nothing.
      const second = isSecond(c);
      if (!second || !isLog(c) || a.status !== 200 || !a.json.data) return;
      a.json.data.deliveries = [];
      a.json.data.count = 0;
    },
  },
  {
    name: 'alt-redelivery-not-found',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (under {alt_base_url} too)',
    request(c) {
      // The alternate region reads deliveries from a replica that the log writer does not feed.
      home(c);
      const m = REDELIVER.exec(c.path);
      if (c.base !== 'alt' || c.method !== 'POST' || !m) return undefined;
      c.path = `${m[1]}${m[2]}-replica${m[3]}`;
      return undefined;
    },
  },
  {
    name: 'audit-entry-at-cut-to-seconds-after-hashing',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (the entries as served match their hashes)',
    answer(c, a) {
      // The serializer formats entry times to whole seconds after the chain hash was computed over milliseconds.
      home(c);
      if (c.method !== 'GET' || c.path !== P('/audit-log') || a.status !== 200) return;
      for (const e of (a.json.data?.entries ?? []) as Rec[])
        if (typeof e?.at === 'string') e.at = e.at.replace(/\.\d+(?=Z|[+-]\d\d:\d\d$)/, '');
    },
  },
  {
    name: 'delivery-log-entry-carries-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response (the delivery log does not show it)',
    answer(c, a) {
      // The log query joins the receiver row and serialises all of its columns, the secret among them.
      home(c);
      if (c.method === 'POST' && c.path === P('/webhooks') && a.status === 200) {
        const { id, signingSecret } = (a.json.data ?? {}) as Rec;
        if (typeof id === 'string' && typeof signingSecret === 'string')
          c.memory.set(`r34-secret:${id}`, signingSecret);
        return;
      }
      const m = DELIVERIES.exec(c.path);
      if (c.method !== 'GET' || !m || a.status !== 200) return;
      const secret = c.memory.get(`r34-secret:${m[1]}`);
      if (typeof secret !== 'string') return;
      for (const d of (a.json.data?.deliveries ?? []) as Rec[])
        if (d && typeof d === 'object') d.signingSecret = secret;
    },
  },
];
