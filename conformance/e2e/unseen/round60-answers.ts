import { randomBytes } from 'node:crypto';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/**
 * Round 60, part 1: the delivery log and redelivery in detail: a redelivery's body against the first
 * delivery's raw bytes, the log's record of each attempt, a redelivery naming a delivery of another receiver
 * or tenant, and a redelivery at the alternate address.
 */
const REDELIVER = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/redeliver$/;
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const isLogRead = (c: ProxyCall) => c.method === 'GET' && LOG.test(c.path);
const redeliveryOf = (c: ProxyCall) => (c.method === 'POST' ? REDELIVER.exec(c.path)?.[2] : undefined);

/** Delivery ids whose redelivery was requested (deliveries carry no proxy call). */
const requested = new Set<string>();
/** First body sent per delivery id, and the signing key per body. */
const firstBodies = new Map<string, string>();
const keys = new Map<string, string>();

export const ROUND60_ANSWERS: UnseenViolation[] = [
  {
    name: 'redelivery-body-created-at-refreshed',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request; the signature is over the unchanged raw request body (a redelivery against the first delivery’s bytes)',
    request(c) {
      const id = redeliveryOf(c);
      if (id) requested.add(id);
      return undefined;
    },
    deliver(d, resign) {
      // The redelivery path rebuilds the event from the stored record and stamps createdAt with "now" (the
      // serializer's default), then signs the new body: a valid signature over bytes the first delivery never had.
      const id = d.headers['ncs-delivery'];
      if (!id) return;
      const first = firstBodies.get(id);
      if (first === undefined) return void firstBodies.set(id, d.body);
      if (!requested.has(id) || d.body !== first) return;
      const event = JSON.parse(d.body) as Rec;
      if (!('createdAt' in event)) return;
      event.createdAt = new Date().toISOString();
      d.body = JSON.stringify(event);
      d.headers['ncs-signature'] = resign(d.body);
    },
  },
  {
    name: 'redelivery-answer-names-new-delivery-id',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (the redelivery answer names the delivery)',
    answer(c, a) {
      // The handler answers with the queue job it created for the redelivery, whose id it took for the delivery's.
      if (!redeliveryOf(c) || a.status !== 200 || !a.json.data?.id) return;
      a.json.data.id = `job_${randomBytes(8).toString('hex')}`;
    },
  },
  {
    name: 'redelivery-looks-up-delivery-without-receiver',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier, entry belongs to another tenant (a redelivery naming a delivery of another receiver or tenant under one’s own receiver)',
    request(c) {
      // The redelivery handler checks that the receiver in the path is the caller's, then finds the delivery by
      // its id alone and redelivers it to its own receiver, in its owner's name.
      home(c);
      const m = c.method === 'POST' ? REDELIVER.exec(c.path) : null;
      if (!m) return undefined;
      const owner = (c.memory.get('r60-owners') as Map<string, { webhook: string; tenant: string }> | undefined)?.get(
        m[2] ?? '',
      );
      if (!owner || owner.webhook === m[1]) return undefined;
      c.path = `/api/public/v1/webhooks/${owner.webhook}/deliveries/${m[2]}/redeliver`;
      c.headers['x-service-tenant'] = owner.tenant;
      return undefined;
    },
    answer(c, a) {
      const m = isLogRead(c) ? LOG.exec(c.path) : null;
      const tenant = c.headers['x-service-tenant'];
      if (!m || !tenant || a.status !== 200 || !Array.isArray(a.json.data?.deliveries)) return;
      const owners =
        (c.memory.get('r60-owners') as Map<string, { webhook: string; tenant: string }> | undefined) ?? new Map();
      c.memory.set('r60-owners', owners);
      for (const d of a.json.data.deliveries as Rec[])
        if (!owners.has(d.id)) owners.set(d.id, { webhook: m[1] ?? '', tenant });
    },
  },
  {
    name: 'alt-delivery-log-attempts-lag-one',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log; the same interface is also offered under a second main-domain address (the log read at the alternate address after a retry or redelivery)',
    answer(c, a) {
      // The alternate address reads the log from a replica that applies attempt rows one write behind.
      if (c.base !== 'alt' || !isLogRead(c) || a.status !== 200 || !Array.isArray(a.json.data?.deliveries)) return;
      for (const d of a.json.data.deliveries as Rec[])
        if (Array.isArray(d.attempts) && d.attempts.length > 1) d.attempts = d.attempts.slice(0, -1);
    },
  },
  {
    name: 'alt-requested-redelivery-unlogged',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (a redelivery requested at the alternate address)',
    answer(c, a) {
      // The alternate address runs its own dispatcher whose attempts go to its in-memory log, never to the
      // shared one: the log shows a redelivery requested there as if it had never been sent.
      const frozen = (c.memory.get('r60-alt-frozen') as Map<string, number> | undefined) ?? new Map<string, number>();
      c.memory.set('r60-alt-frozen', frozen);
      const id = redeliveryOf(c);
      if (id && c.base === 'alt' && a.status === 200 && Array.isArray(a.json.data?.attempts) && !frozen.has(id))
        frozen.set(id, a.json.data.attempts.length);
      if (!isLogRead(c) || a.status !== 200 || !Array.isArray(a.json.data?.deliveries)) return;
      for (const d of a.json.data.deliveries as Rec[]) {
        const n = frozen.get(d.id);
        if (n !== undefined && Array.isArray(d.attempts)) d.attempts = d.attempts.slice(0, n);
      }
    },
  },
  {
    name: 'delivery-log-attempt-signature-recomputed-at-read',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log (each attempt’s record of the signature t=<unix-seconds>,v1=<hex-signature> it carried)',
    sign(body, secret, t) {
      keys.set(body, secret);
      return signWebhook(body, secret, t);
    },
    deliver(d) {
      const id = d.headers['ncs-delivery'];
      if (id && !firstBodies.has(`log:${id}`)) firstBodies.set(`log:${id}`, d.body);
    },
    answer(c, a) {
      // The log view does not store the header it sent; it signs the stored body again when the log is read, so
      // every attempt shows the time of the read instead of the signature the receiver got.
      if (!isLogRead(c) || a.status !== 200 || !Array.isArray(a.json.data?.deliveries)) return;
      const now = Math.floor(Date.now() / 1000);
      for (const d of a.json.data.deliveries as Rec[]) {
        const body = firstBodies.get(`log:${d.id}`);
        const secret = body === undefined ? undefined : keys.get(body);
        if (body === undefined || secret === undefined || !Array.isArray(d.attempts)) continue;
        for (const at of d.attempts as Rec[])
          if (typeof at.signature === 'string') at.signature = signWebhook(body, secret, now);
      }
    },
  },
];
