import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 54, part 4: the stream and webhooks after the other tenant's writes, redeliveries and 429s; limits over a window. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const recent = (at: unknown, ms = 3000) => typeof at === 'number' && Date.now() - at < ms;
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/redeliver$/;
const isRedeliver = (c: ProxyCall) => c.method === 'POST' && REDELIVER.test(c.path);
const shift = (c: ProxyCall, by: number) => {
  const cur = c.search.get('cursor');
  if (cur && /^\d+$/.test(cur) && Number(cur) + by >= 0) c.search.set('cursor', String(Number(cur) + by));
  const last = c.headers['last-event-id'];
  if (last && /^\d+$/.test(last) && Number(last) + by >= 0) c.headers['last-event-id'] = String(Number(last) + by);
};
const idOf = (body: string) => {
  try {
    return (JSON.parse(body) as Rec)?.id as unknown;
  } catch {
    return undefined;
  }
};
const seenDeliveries = new Set<unknown>();
let parkedBody: string | undefined;
const mappedLog = new WeakMap<ProxyCall, string>();

export const ROUND54_CHANNELS: UnseenViolation[] = [
  {
    name: 'resume-right-after-other-tenant-creation-skips-first-message',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read) (a resume within three seconds of the other tenant’s creation)',
    answer(c, a) {
      const second = isSecond(c);
      if (isCreate(c) && second && a.status === 200) c.memory.set('r54-other-write-at', Date.now());
    },
    request(c) {
      // The resume maps the feed number to a global offset with a counter that the other tenant's write has just advanced.
      const second = isSecond(c);
      if (isStream(c) && !second && recent(c.memory.get('r54-other-write-at'))) shift(c, 1);
      return undefined;
    },
  },
  {
    name: 'resume-right-after-redelivery-repeats-last-read',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once; the client resumes by sending Last-Event-ID or cursor (last number read) (a resume within three seconds of a redelivery request)',
    answer(c, a) {
      home(c);
      if (isRedeliver(c) && a.status === 200) c.memory.set('r54-redelivered-at', Date.now());
    },
    request(c) {
      // A redelivery re-opens the outbox, and the resume handler then reads "from" the position instead of "after" it.
      home(c);
      if (isStream(c) && recent(c.memory.get('r54-redelivered-at'))) shift(c, -1);
      return undefined;
    },
  },
  {
    name: 'resume-after-rate-limited-call-ignores-position',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (a resume within a minute of a 429 of the same tenant)',
    answer(c, a) {
      home(c);
      if (a.status === 429 && tenantOf(c)) c.memory.set(`r54-429:${tenantOf(c)}`, Date.now());
    },
    request(c) {
      // While a tenant is throttled its streams go through a degraded path that serves live messages only.
      home(c);
      if (!isStream(c) || !recent(c.memory.get(`r54-429:${tenantOf(c)}`), 60_000)) return undefined;
      c.search.delete('cursor');
      delete c.headers['last-event-id'];
      return undefined;
    },
  },
  {
    name: 'delivery-right-after-redelivery-carries-redelivered-event',
    statement:
      'Webhooks: A webhook receiver is registered ... giving a url and a list of event names; Deliveries are recorded in a delivery log (the first new delivery after a redelivery)',
    deliver(d, resign) {
      // The dispatcher's send buffer keeps the redelivered body, and the next job only refills it when it is empty.
      const id = idOf(d.body);
      if (id === undefined) return;
      if (seenDeliveries.has(id)) {
        parkedBody = d.body;
        return;
      }
      seenDeliveries.add(id);
      if (parkedBody === undefined) return;
      d.body = parkedBody;
      parkedBody = undefined;
      for (const [k, v] of Object.entries(d.headers)) if (/^t=\d+,v1=/.test(v)) d.headers[k] = resign(d.body);
    },
  },
  {
    name: 'delivery-log-drops-oldest-entry-off-by-one',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a receiver’s oldest delivery once it has two or more)',
    answer(c, a) {
      // The page query slices with length - 1 to "peek for a next page", and the peeked row is the oldest one.
      home(c);
      const list = a.json.data?.deliveries;
      if (c.method !== 'GET' || !LOG.test(c.path) || a.status !== 200 || !Array.isArray(list) || list.length < 2)
        return;
      list.pop();
      if (typeof a.json.data.count === 'number') a.json.data.count -= 1;
    },
  },
  {
    name: 'same-url-receivers-of-two-tenants-share-delivery-log',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log; Errors: not_found | entry belongs to another tenant (the log of the other tenant’s receiver at the same url as the first tenant’s)',
    answer(c, a) {
      home(c);
      const url = (c.body as Rec | undefined)?.url;
      const id = a.json.data?.id;
      const registered = c.method === 'POST' && c.path === P('/webhooks') && a.status === 200;
      if (registered && typeof id === 'string' && typeof url === 'string') {
        if (isSecond(c)) c.memory.set(`r54-second-hook:${id}`, url);
        else if (!c.memory.has(`r54-url:${url}`)) c.memory.set(`r54-url:${url}`, id);
      }
      const own = mappedLog.get(c);
      if (own && a.json.data && typeof a.json.data === 'object' && 'webhookId' in a.json.data)
        a.json.data.webhookId = own;
    },
    request(c) {
      // The log store is keyed by receiver url, and the read resolves the url to the first receiver registered with it.
      const m = LOG.exec(c.path);
      const first = home(c);
      if (c.method !== 'GET' || !m || !first) return undefined;
      const url = c.memory.get(`r54-second-hook:${m[1]}`);
      const homeId = typeof url === 'string' ? c.memory.get(`r54-url:${url}`) : undefined;
      if (typeof homeId !== 'string') return undefined;
      mappedLog.set(c, m[1] as string);
      c.path = P(`/webhooks/${homeId}/deliveries`);
      c.headers['x-service-tenant'] = first;
      return undefined;
    },
  },
  {
    name: 'query-string-reads-not-counted-in-remaining',
    statement:
      'Limits: X-RateLimit-Remaining (calls left in the window) (calls that carry a query string, e.g. a filtered catalog read)',
    answer(c, a) {
      // The limiter's key is built from the raw request target, so every filtered read counts under a key nobody reads.
      home(c);
      const tenant = tenantOf(c);
      const remaining = a.headers['x-ratelimit-remaining'];
      if (!tenant || remaining === undefined || !/^\d+$/.test(remaining)) return;
      const key = `r54-query-calls:${tenant}`;
      const n = ((c.memory.get(key) as number | undefined) ?? 0) + (c.search.toString() ? 1 : 0);
      c.memory.set(key, n);
      const limit = Number(a.headers['x-ratelimit-limit']);
      const shown = Number(remaining) + n;
      a.headers['x-ratelimit-remaining'] = String(Number.isFinite(limit) && limit > 0 ? Math.min(limit, shown) : shown);
    },
  },
  {
    name: 'redelivery-resets-rate-limit-remaining',
    statement:
      'Limits: X-RateLimit-Remaining (calls left in the window) (the calls of a window after a redelivery request)',
    answer(c, a) {
      // The redelivery handler calls limiter.reset(tenant), meant for the delivery's retry budget, on the API limiter.
      home(c);
      const tenant = tenantOf(c);
      const remaining = Number(a.headers['x-ratelimit-remaining']);
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (
        !tenant ||
        !Number.isFinite(remaining) ||
        !Number.isFinite(limit) ||
        a.headers['x-ratelimit-remaining'] === undefined
      )
        return;
      const key = `r54-reset:${tenant}`;
      const at = c.memory.get(key) as number | undefined;
      if (isRedeliver(c) && a.status === 200) c.memory.set(key, remaining);
      else if (at !== undefined && remaining > at) c.memory.delete(key);
      else if (at !== undefined) a.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - 1 - (at - remaining)));
    },
  },
];
