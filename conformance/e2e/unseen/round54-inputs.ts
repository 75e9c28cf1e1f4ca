import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { CURRENT, isSecond, type Rec } from './round44-common.ts';

/** Round 54, part 2: request state that leaks across calls: tenants, receivers, resume positions, keys after a 429. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const recent = (at: unknown, ms = 3000) => typeof at === 'number' && Date.now() - at < ms;
const isRegister = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/redeliver$/;
const rawHost = (url: unknown) =>
  typeof url === 'string' ? (/^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(url)?.[1] ?? '') : '';
const notFound = (): ProxyAnswer => ({
  status: 404,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  json: {
    ok: false,
    error: { code: 'not_found', message: 'The entry does not exist.' },
    meta: { requestId: `req_r54_${Date.now().toString(36)}`, version: CURRENT, at: new Date().toISOString() },
  },
});

export const ROUND54_INPUTS: UnseenViolation[] = [
  {
    name: 'second-tenant-creation-right-after-home-creation-stored-for-home',
    statement:
      'What the service does: A tenant (an operating business, identified by a tenant identifier in a request header) creates connections (the other tenant’s creation within three seconds of the first tenant’s)',
    request(c) {
      // The write worker takes the tenant from a thread-local that is refreshed only when the worker goes idle.
      const second = isSecond(c);
      const first = home(c);
      if (!isCreate(c) || !first) return undefined;
      if (!second) c.memory.set('r54-home-write-at', Date.now());
      else if (recent(c.memory.get('r54-home-write-at'))) c.headers['x-service-tenant'] = first;
      return undefined;
    },
  },
  {
    name: 'webhook-registration-trailing-slash-url-returns-existing-receiver',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response (a second receiver whose url differs from an earlier one only by a trailing slash or the letter case of the host)',
    answer(c, a) {
      // Registration deduplicates on a normalised url and then answers with the stored first registration, key included.
      home(c);
      const url = bodyOf(c.body).url;
      if (!isRegister(c) || a.status !== 200 || !a.json.data?.id || typeof url !== 'string') return;
      const norm = url.replace(/\/+$/, '').replace(rawHost(url), rawHost(url).toLowerCase());
      const key = `r54-receiver:${tenantOf(c)}:${norm}`;
      const stored = c.memory.get(key) as { url: string; data: Rec } | undefined;
      if (!stored) c.memory.set(key, { url, data: structuredClone(a.json.data) });
      else if (stored.url !== url) a.json.data = structuredClone(stored.data);
    },
  },
  {
    name: 'upper-case-host-receiver-redelivery-not-found',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a receiver whose url spells its host in upper case)',
    answer(c, a) {
      home(c);
      const url = bodyOf(c.body).url;
      if (isRegister(c) && a.status === 200 && a.json.data?.id && /[A-Z]/.test(rawHost(url)))
        c.memory.set(`r54-upper:${a.json.data.id}`, true);
    },
    request(c) {
      // The redelivery job looks the receiver up in a url-keyed map filled with lower-cased hosts, and finds nothing.
      home(c);
      const m = REDELIVER.exec(c.path);
      if (c.method !== 'POST' || !m || !c.memory.has(`r54-upper:${m[1]}`)) return undefined;
      return notFound();
    },
  },
  {
    name: 'creation-right-after-rate-limited-call-loses-key',
    statement:
      'POST /api/public/v1/connections: A missing key yields idempotency_required; Errors: idempotency_required | header Idempotency-Key missing (a keyed creation within five seconds of a 429 of the same tenant)',
    answer(c, a) {
      home(c);
      if (a.status === 429) c.memory.set(`r54-limited:${tenantOf(c)}`, Date.now());
    },
    request(c) {
      // After a 429 the gateway parks the tenant's writes and replays them from a queue that stores body and auth only.
      home(c);
      if (isCreate(c) && recent(c.memory.get(`r54-limited:${tenantOf(c)}`), 5000)) delete c.headers['idempotency-key'];
      return undefined;
    },
  },
  {
    name: 'home-resume-right-after-second-tenant-resume-uses-its-position',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read) (a resume within three seconds of the other tenant’s resume)',
    request(c) {
      // Resume positions are cached per client id for reconnect storms, and the cache ignores the tenant header.
      const second = isSecond(c);
      if (!isStream(c) || !c.headers.authorization) return undefined;
      const pos = c.headers['last-event-id'] || c.search.get('cursor');
      if (!pos || !/^\d+$/.test(pos)) return undefined;
      const cached = c.memory.get('r54-resume') as { pos: string; at: number; second: boolean } | undefined;
      if (cached && cached.second !== second && !second && recent(cached.at) && cached.pos !== pos) {
        if (c.headers['last-event-id']) c.headers['last-event-id'] = cached.pos;
        if (c.search.has('cursor')) c.search.set('cursor', cached.pos);
      } else c.memory.set('r54-resume', { pos, at: Date.now(), second });
      return undefined;
    },
  },
  {
    name: 'registration-right-after-other-tenant-registration-takes-its-events',
    statement:
      'Webhooks: A webhook receiver is registered with POST /api/public/v1/webhooks, giving a url and a list of event names (a registration within three seconds of the other tenant’s)',
    request(c) {
      // The registration form object is pooled per client, and an events list set by the last caller wins over the new one.
      home(c);
      if (!isRegister(c)) return undefined;
      const b = bodyOf(c.body);
      const prev = c.memory.get('r54-events') as { events: unknown; tenant: string; at: number } | undefined;
      if (prev && prev.tenant !== tenantOf(c) && recent(prev.at) && Array.isArray(b.events))
        c.body = { ...b, events: prev.events };
      else if (Array.isArray(b.events))
        c.memory.set('r54-events', { events: b.events, tenant: tenantOf(c), at: Date.now() });
      return undefined;
    },
  },
  {
    name: 'redelivery-right-after-other-receiver-log-read-targets-it',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a redelivery within three seconds of reading another receiver’s log)',
    answer(c, a) {
      home(c);
      const m = LOG.exec(c.path);
      if (c.method === 'GET' && m && a.status === 200)
        c.memory.set('r54-viewed', { id: m[1], tenant: tenantOf(c), at: Date.now() });
    },
    request(c) {
      // The redelivery handler resolves the receiver from the session's "currently viewed receiver", not from the path.
      home(c);
      const m = REDELIVER.exec(c.path);
      const viewed = c.memory.get('r54-viewed') as { id: string; tenant: string; at: number } | undefined;
      if (c.method !== 'POST' || !m || !viewed || viewed.id === m[1] || viewed.tenant !== tenantOf(c)) return undefined;
      if (recent(viewed.at)) c.path = P(`/webhooks/${viewed.id}/deliveries/${m[2]}/redeliver`);
      return undefined;
    },
  },
];
