import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 55, part 3: the failure envelope in rarely seen refusals (replayed registrations, foreign receivers' logs, replayed 404s, denials). */
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const isRegistration = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
const recent = (at: unknown, ms = 5000) => typeof at === 'number' && Date.now() - at < ms;
/** Remembers which tenant registered each receiver; answers the receiver id of a delivery-log read. */
const owners = (c: ProxyCall, a: ProxyAnswer) => {
  const map = (c.memory.get('r55-owners') as Map<string, string> | undefined) ?? new Map<string, string>();
  c.memory.set('r55-owners', map);
  if (isRegistration(c) && a.status === 200 && typeof a.json.data?.id === 'string')
    map.set(a.json.data.id, tenantOf(c));
  return map;
};
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const CRITICAL = ['orders.create', 'orders.cancel', 'payments.capture', 'payments.refund', 'giftcards.redeem'];

export const ROUND55_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'registration-conflict-hint-quotes-first-signing-key',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details; no tokens or raw data are to be sent along; POST /webhooks: The signing key is issued exactly once (a 409 on a reused registration key)',
    answer(c, a) {
      // The conflict hint is rendered from the stored record to "help" the caller find the receiver the key made.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isRegistration(c) || !key) return;
      const slot = `r55-reg:${tenantOf(c)}:${key}`;
      const secret = a.json.data?.signingSecret ?? a.json.data?.signingKey ?? a.json.data?.secret;
      if (a.status === 200 && typeof secret === 'string' && !c.memory.has(slot))
        c.memory.set(slot, { id: a.json.data.id, secret });
      const first = c.memory.get(slot) as { id: string; secret: string } | undefined;
      if (a.status === 409 && first && a.json.error)
        a.json.error.hint = `This key already created receiver ${first.id} (signing key ${first.secret}); use a new key.`;
    },
  },
  {
    name: 'foreign-receiver-delivery-log-code-webhook-not-found',
    statement:
      'Failure envelope: error.code | one of the codes in the Errors part; Errors: not_found | 404 | entry belongs to another tenant (the delivery log of another tenant’s receiver)',
    answer(c, a) {
      // The webhooks module throws its own WebhookNotFound, whose code the shared error mapper passes through.
      home(c);
      const map = owners(c, a);
      const id = LOG.exec(c.path)?.[1];
      const owner = id ? map.get(decodeURIComponent(id)) : undefined;
      if (c.method === 'GET' && owner && owner !== tenantOf(c) && a.status === 404 && a.json.error)
        a.json.error.code = 'webhook_not_found';
    },
  },
  {
    name: 'foreign-receiver-log-refusal-repeats-owner-request-id',
    statement:
      'Meta: requestId | identifier of this call; Errors: They contain the request identifier (meta.requestId) (a 404 on the delivery log of another tenant’s receiver, after its owner read it)',
    answer(c, a) {
      // The log endpoint keeps the last response context per receiver id and its error path reads the request id from it.
      home(c);
      const map = owners(c, a);
      const raw = LOG.exec(c.path)?.[1];
      if (c.method !== 'GET' || !raw || typeof a.json.meta?.requestId !== 'string') return;
      const id = decodeURIComponent(raw);
      const owner = map.get(id);
      if (a.status === 200 && owner === tenantOf(c)) c.memory.set(`r55-log-rid:${id}`, a.json.meta.requestId);
      const last = c.memory.get(`r55-log-rid:${id}`);
      if (a.status === 404 && owner && owner !== tenantOf(c) && typeof last === 'string') a.json.meta.requestId = last;
    },
  },
  {
    name: 'replayed-not-found-creation-unmarked',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true and meta.idempotencyKey set (a creation answered 404 not_found, repeated)',
    answer(c, a) {
      // A stored refusal is replayed through the generic error serializer, which builds fresh meta without the replay fields.
      home(c);
      if (isCreate(c) && a.status === 404 && a.json.meta?.replayed === true) {
        delete a.json.meta.replayed;
        delete a.json.meta.idempotencyKey;
      }
    },
  },
  {
    name: 'delivery-log-404-cached-from-earlier-version-read',
    statement:
      'Versioning: Changes of 2026-07-01: a delivery log for webhooks was added (deliveries can be viewed and triggered again) (a current read within five seconds of a 2026-06-12 read of the same log)',
    answer(c, a) {
      // The edge cache keys delivery-log answers by path and tenant; the Service-Version header is not part of the key.
      home(c);
      if (c.method !== 'GET' || !LOG.test(c.path)) return;
      const slot = `r55-log404:${tenantOf(c)}:${c.path}`;
      if (earlier(c) && a.status === 404) c.memory.set(slot, Date.now());
      else if (!earlier(c) && a.status === 200 && recent(c.memory.get(slot)))
        refuse(a, 404, 'not_found', 'The entry does not exist.', 'No webhook receiver with this id for this tenant.');
    },
  },
  {
    name: 'critical-capability-denial-answered-forbidden',
    statement:
      'Errors: capability_denied | 409 | capability is not released for this connection | capability not booked (a creation denied a critical capability)',
    answer(c, a) {
      // Critical capabilities pass an extra entitlement guard whose refusal is mapped to the permission error.
      home(c);
      if (!isCreate(c) || a.status !== 409 || a.json.error?.code !== 'capability_denied') return;
      const text = JSON.stringify(a.json.error);
      const asked = Array.isArray(bodyOf(c.body).capabilities) ? (bodyOf(c.body).capabilities as unknown[]) : [];
      const denied = CRITICAL.filter((id) => text.includes(`${id}`) && asked.includes(id));
      if (denied.length) refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
];
