import { createHmac } from 'node:crypto';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/** Round 58, part 4: webhook signatures and deliveries in detail (redeliveries, two receivers, event filters, the log, tenants). */
const signatureKey = (headers: Record<string, string>) => Object.keys(headers).find((k) => /signature/i.test(k));
const attemptOf = (headers: Record<string, string>) => {
  const k = Object.keys(headers).find((h) => /attempt/i.test(h));
  return k ? Number(headers[k]) : 1;
};
const eventIdOf = (body: string) => {
  try {
    const id = (JSON.parse(body) as Rec).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
};
const tOf = (value: string) => Number(/(?:^|,)\s*t=(\d+)/.exec(value)?.[1] ?? Math.floor(Date.now() / 1000));

/** Signing keys in the order the signer first used them (the newest receiver's key last). */
const keysInOrder: string[] = [];
/** Event id -> the first delivery of it and the signature header that delivery carried. */
const firstDeliveryOfEvent = new Map<string, { delivery: string; signature: string }>();
/** Family widening: event names the receiver asked for, by registration key. */
const FAMILIES: Record<string, string[]> = {
  order: ['order.created', 'order.paid'],
  connection: ['connection.created', 'connection.state_changed'],
  webhook: ['webhook.created', 'webhook.redelivery_requested'],
};
const isLogRead = (c: ProxyCall) =>
  c.method === 'GET' && /^\/webhooks\/[^/]+\/deliveries$/.test(c.path.slice(P('').length));

export const ROUND58_CHANNELS: UnseenViolation[] = [
  {
    name: 'redelivery-signed-with-newest-receivers-key',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key; Deliveries ... can be triggered again on request (a redelivery to a receiver registered before another one)',
    sign(body, secret, t) {
      if (!keysInOrder.includes(secret)) keysInOrder.push(secret);
      return signWebhook(body, secret, t);
    },
    deliver(d) {
      // The redelivery worker loads "the tenant's signer" and takes the most recently created receiver's key instead
      // of the key of the receiver the delivery belongs to.
      const k = signatureKey(d.headers);
      const newest = keysInOrder[keysInOrder.length - 1];
      if (!k || !newest || attemptOf(d.headers) < 2) return;
      d.headers[k] = signWebhook(d.body, newest, tOf(d.headers[k] as string));
    },
  },
  {
    name: 'signature-keyed-with-base64-decoded-secret',
    statement:
      'Webhooks: Signature rule: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The signer was copied from a Svix-style library: it strips "whsec_" and base64-decodes the rest to get the key
      // bytes, while the signing key handed out is the whole text.
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      const hex = createHmac('sha256', key).update(`${t}.`).update(body, 'utf8').digest('hex');
      return `t=${t},v1=${hex}`;
    },
  },
  {
    name: 'second-receiver-of-event-sent-first-receivers-signature',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key (two receivers subscribed to the same event, each with its own signing key)',
    deliver(d) {
      // The fan-out signs once per event and caches the header by event id; the second receiver's delivery reuses
      // the header computed with the first receiver's key.
      const k = signatureKey(d.headers);
      const id = eventIdOf(d.body);
      const delivery = Object.entries(d.headers).find(([h]) => /delivery/i.test(h))?.[1] ?? '';
      if (!k || !id) return;
      const first = firstDeliveryOfEvent.get(id);
      if (!first) {
        firstDeliveryOfEvent.set(id, { delivery, signature: d.headers[k] as string });
        return;
      }
      if (first.delivery !== delivery) d.headers[k] = first.signature;
    },
  },
  {
    name: 'webhook-event-filter-widened-to-family',
    statement:
      'Webhooks: A webhook receiver is registered with POST /api/public/v1/webhooks, giving a url and a list of event names (a receiver of one event name gets the other events of its family)',
    request(c) {
      // The subscription filter is stored as the prefix of each name ("order.*"), so a receiver of order.created also
      // gets order.paid; the registration answer still echoes the names as given.
      home(c);
      if (c.method !== 'POST' || c.path !== P('/webhooks') || !c.body || typeof c.body !== 'object') return undefined;
      const body = c.body as Rec;
      if (!Array.isArray(body.events)) return undefined;
      const given = body.events.filter((e): e is string => typeof e === 'string');
      const widened = new Set<string>(given);
      for (const e of given) for (const f of FAMILIES[e.split('.')[0] ?? ''] ?? []) widened.add(f);
      if (widened.size === given.length) return undefined;
      c.memory.set('r58-given-events', given);
      c.body = { ...body, events: [...widened] };
      return undefined;
    },
    answer(c, a) {
      if (c.method !== 'POST' || c.path !== P('/webhooks') || a.status !== 200) return;
      const given = c.memory.get('r58-given-events') as string[] | undefined;
      c.memory.delete('r58-given-events');
      if (given && Array.isArray(a.json.data?.events)) a.json.data.events = given;
    },
  },
  {
    name: 'delivery-body-sent-with-byte-order-mark-after-signing',
    statement:
      'Webhooks: Signature rule: ... over the text <t>, a dot, and the unchanged raw request body (the body the receiver gets starts with a byte order mark the signature does not cover)',
    deliver(d) {
      // The relay re-encodes outgoing bodies with a .NET UTF8Encoding(true) writer, which prepends a BOM after the
      // signature was computed over the original bytes.
      if (d.body.startsWith('\uFEFF')) return;
      d.body = `\uFEFF${d.body}`;
    },
  },
  {
    name: 'second-tenant-reads-home-receivers-delivery-log',
    statement:
      "Errors: not_found | 404 | entry belongs to another tenant; Authentication: x-service-tenant | identifier of the tenant for which the call applies (the delivery log of a receiver of the run's own tenant read with the second tenant's header)",
    request(c) {
      // The delivery-log route looks receivers up by id only and takes the tenant from the token's default tenant.
      const first = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (!isLogRead(c) || !first || !tenant || tenant === first || !c.headers.authorization) return undefined;
      c.headers['x-service-tenant'] = first;
      return undefined;
    },
  },
];
