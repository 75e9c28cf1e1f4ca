import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 39 of the unseen violations, part 4: channels — later events of a multi-event receiver delivered
 * unsigned, redelivered entries whose status stays frozen, audit entries hidden once a creation was
 * replayed, delivery logs mixing in other receivers' deliveries, the alternate audit log lacking changes
 * made at the main address, delivery logs listing only a receiver's first event, and resumptions with
 * both positions skipping one message.
 */
type Rec = Record<string, any>;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/([^/]+)\/redeliver$/;
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const isRegistration = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
/** Event types that some receiver registered after its first one. */
const laterEvents = new Set<string>();
const signatureHeader = (h: Record<string, string>) => Object.keys(h).find((k) => /signature/i.test(k));
const eventsOf = (a: ProxyAnswer) => (Array.isArray(a.json.data?.events) ? (a.json.data.events as string[]) : []);

export const ROUND39_CHANNELS: UnseenViolation[] = [
  {
    name: 'multi-event-webhook-later-events-unsigned',
    statement:
      'Webhooks: Signature rule: … HMAC with SHA-256, keyed with the signing key (every event a receiver registered, not only its first)',
    answer(c, a) {
      // The signer looks keys up by (event, position 0) — the table's old primary key — and finds none for later ones.
      home(c);
      if (!isRegistration(c) || a.status !== 200) return;
      for (const [i, e] of eventsOf(a).entries()) if (i > 0) laterEvents.add(e);
    },
    deliver(d) {
      let type: unknown;
      try {
        type = (JSON.parse(d.body) as Rec)?.type;
      } catch {
        return;
      }
      if (typeof type !== 'string') return;
      const name = signatureHeader(d.headers);
      if (name && laterEvents.has(type)) delete d.headers[name];
    },
  },
  {
    name: 'redelivered-entry-status-frozen',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (the log shows how a redelivery went)',
    request(c) {
      // The redelivery worker writes its outcome to a new row the log view never joins, so "pending" stays.
      home(c);
      const m = REDELIVER.exec(c.path);
      if (c.method === 'POST' && m?.[1]) c.memory.set(`r39-frozen:${m[1]}`, true);
      return undefined;
    },
    answer(c, a) {
      const list = a.json.data?.deliveries;
      if (c.method !== 'GET' || !LOG.test(c.path) || !Array.isArray(list)) return;
      for (const d of list as Rec[]) if (c.memory.get(`r39-frozen:${d?.id}`)) d.status = 'pending';
    },
  },
  {
    name: 'audit-hides-creation-after-replay',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant (a creation stays in the log after its key was replayed)',
    answer(c, a) {
      // The audit view de-duplicates by idempotency key and drops every entry once the key has two uses.
      home(c);
      const hidden = (c.memory.get('r39-hidden') ?? []) as string[];
      if (isCreate(c) && a.json.meta?.replayed === true && typeof a.json.data?.id === 'string')
        c.memory.set('r39-hidden', [...hidden, `connection:${a.json.data.id}`]);
      const entries = a.json.data?.entries;
      if (!isAudit(c) || !Array.isArray(entries)) return;
      a.json.data.entries = (entries as Rec[]).filter((e) => !hidden.includes(String(e?.target)));
      if (typeof a.json.data.count === 'number') a.json.data.count = a.json.data.entries.length;
    },
  },
  {
    name: 'delivery-log-mixes-receivers',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log (a receiver’s log lists that receiver’s deliveries only)',
    answer(c, a) {
      // The log query lost its receiver condition in an ORM upgrade; the proxy replays what other logs showed.
      home(c);
      const m = LOG.exec(c.path);
      const list = a.json.data?.deliveries;
      if (c.method !== 'GET' || !m?.[1] || !Array.isArray(list)) return;
      const others = (c.memory.get('r39-logs') ?? {}) as Record<string, Rec[]>;
      const own = (list as Rec[]).filter((d) => d?.receiverId === m[1]);
      c.memory.set('r39-logs', { ...others, [m[1]]: own });
      const foreign = Object.entries(others).flatMap(([id, ds]) => (id === m[1] ? [] : ds));
      a.json.data.deliveries = [...list, ...foreign];
      if (typeof a.json.data.count === 'number') a.json.data.count = a.json.data.deliveries.length;
    },
  },
  {
    name: 'alt-audit-log-lacks-main-changes',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant (under {alt_base_url}, changes made at {base_url} too)',
    answer(c, a) {
      // The alternate region's audit view reads its own write log only; changes made through the main address are absent.
      home(c);
      const mainIds = (c.memory.get('r39-main-writes') ?? []) as string[];
      if (c.base === 'main' && c.method === 'POST' && a.status === 200 && typeof a.json.meta?.requestId === 'string')
        c.memory.set('r39-main-writes', [...mainIds, a.json.meta.requestId]);
      const entries = a.json.data?.entries;
      if (c.base !== 'alt' || !isAudit(c) || !Array.isArray(entries)) return;
      a.json.data.entries = (entries as Rec[]).filter((e) => !mainIds.includes(String(e?.requestId)));
      if (typeof a.json.data.count === 'number') a.json.data.count = a.json.data.entries.length;
    },
  },
  {
    name: 'delivery-log-lists-first-event-only',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log (deliveries of every event the receiver registered)',
    answer(c, a) {
      // The log view filters by the receiver's "event" column, which holds only the first registered name.
      home(c);
      const firsts = (c.memory.get('r39-first') ?? {}) as Record<string, string>;
      if (isRegistration(c) && a.status === 200 && typeof a.json.data?.id === 'string' && eventsOf(a)[0])
        c.memory.set('r39-first', { ...firsts, [a.json.data.id]: eventsOf(a)[0] });
      const m = LOG.exec(c.path);
      const list = a.json.data?.deliveries;
      const first = m?.[1] ? firsts[m[1]] : undefined;
      if (c.method !== 'GET' || !first || !Array.isArray(list)) return;
      a.json.data.deliveries = (list as Rec[]).filter((d) => d?.eventType === first);
      if (typeof a.json.data.count === 'number') a.json.data.count = a.json.data.deliveries.length;
    },
  },
  {
    name: 'resume-with-both-positions-skips-one',
    statement:
      'Events: the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read) (both sent, no message is skipped)',
    request(c) {
      // The resume code adds one to each position it finds, the second time to the value already advanced.
      home(c);
      const header = Number(c.headers['last-event-id']);
      const cursor = Number(c.search.get('cursor'));
      if (c.method !== 'GET' || c.path !== P('/stream') || !c.search.has('cursor')) return undefined;
      if (!Number.isInteger(header) || !Number.isInteger(cursor)) return undefined;
      c.search.set('cursor', String(Math.max(header, cursor) + 1));
      c.headers['last-event-id'] = String(Math.max(header, cursor) + 1);
      return undefined;
    },
  },
];
