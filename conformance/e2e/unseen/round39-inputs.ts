import { randomUUID } from 'node:crypto';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 39 of the unseen violations, part 2: inputs — keys reused with reordered fields answered as a
 * conflict, a second tenant's multi-event webhook registrations refused, connector filters joined by OR,
 * self-made keys refused once a key was issued, a third identical creation answered as a conflict, a
 * replay after a list read creating again, checks of unknown connectors answered with a decision, and a
 * second tenant's checks without an environment read as production.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
/** The failure the deployment sends on its own, without asking the service. */
const reject = (status: number, code: string, message: string, detail: string): ProxyAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  json: {
    ok: false,
    error: { code, message, detail },
    meta: { requestId: `req_${randomUUID().slice(0, 16)}`, version: '2026-07-01', at: new Date().toISOString() },
  },
});
/** Creations whose key the proxy changed, with the key the client sent. */
const renamed = new WeakMap<ProxyCall, string>();
const invalid = (detail: string) => reject(400, 'invalid_request', 'The request is incomplete or unsuitable.', detail);

export const ROUND39_INPUTS: UnseenViolation[] = [
  {
    name: 'key-reuse-with-reordered-fields-conflicts',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (the same fields in another order are the same content)',
    request(c) {
      // The key store fingerprints the raw body text, so the same fields in another order look like new content.
      home(c);
      const key = c.headers['idempotency-key'];
      const b = body(c);
      if (!isCreate(c) || !key || !b) return undefined;
      const order = Object.keys(b).join(',');
      const seen = c.memory.get(`r39-order:${key}`);
      if (seen === undefined) c.memory.set(`r39-order:${key}`, order);
      else if (seen !== order)
        return reject(
          409,
          'idempotency_conflict',
          'The idempotency key was used with different content.',
          'fingerprint differs',
        );
      return undefined;
    },
  },
  {
    name: 'second-tenant-multi-event-webhook-refused',
    statement:
      'POST /api/public/v1/webhooks: Body: url (string), events (array of event-name strings) (a second tenant registering two events)',
    request(c) {
      // The second tenant's webhook service still runs the first release, whose column held one event name.
      const second = isSecond(c);
      const events = body(c)?.events;
      if (second && c.method === 'POST' && c.path === P('/webhooks') && Array.isArray(events) && events.length > 1)
        return invalid('events must contain exactly one event name');
      return undefined;
    },
  },
  {
    name: 'connectors-provider-and-capability-filters-or-joined',
    statement:
      'GET /api/public/v1/connectors: capability | providerId (filters; both given, a listed connector matches both)',
    request(c) {
      // The search builder joins filters with OR; the proxy stands in by sending only the capability on.
      home(c);
      if (c.method === 'GET' && c.path === P('/connectors') && c.search.has('capability') && c.search.has('providerId'))
        c.search.delete('providerId');
      return undefined;
    },
  },
  {
    name: 'self-made-key-refused-after-issued-key',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (a self-made key matching it is accepted after a key was issued)',
    request(c) {
      // Once the tenant has used the key endpoint, the gateway switches to "issued keys only" for that tenant.
      home(c);
      if (c.method === 'POST' && c.path === P('/idempotency-keys')) c.memory.set('r39-issued', true);
      const key = c.headers['idempotency-key'];
      if (
        isCreate(c) &&
        c.memory.get('r39-issued') &&
        key &&
        /^[A-Za-z0-9._:-]{8,128}$/.test(key) &&
        !key.startsWith('idk_')
      )
        return invalid('header Idempotency-Key was not issued by this service');
      return undefined;
    },
  },
  {
    name: 'third-identical-creation-conflicts',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (a second replay too)',
    request(c) {
      // The replay path overwrites the stored fingerprint with the replayed answer's, so the next replay mismatches.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const uses = Number(c.memory.get(`r39-uses:${key}`) ?? 0) + 1;
      c.memory.set(`r39-uses:${key}`, uses);
      if (uses >= 3 && c.memory.get(`r39-body:${key}`) === JSON.stringify(c.body))
        return reject(
          409,
          'idempotency_conflict',
          'The idempotency key was used with different content.',
          'fingerprint differs',
        );
      c.memory.set(`r39-body:${key}`, JSON.stringify(c.body));
      return undefined;
    },
  },
  {
    name: 'replay-after-list-read-creates-again',
    statement:
      'Modifying calls are repeat-safe through idempotency keys: the same key with the same content returns the same response again (a connection list read in between)',
    request(c) {
      // Reading the connection list refreshes the tenant's cache region, which also evicts its idempotency records.
      home(c);
      if (c.method === 'GET' && c.path === P('/connections')) c.memory.set('r39-flushed', true);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      if (c.memory.get('r39-flushed') && c.memory.has(`r39-made:${key}`) && key.length < 120) {
        c.headers['idempotency-key'] = `${key}.again`;
        renamed.set(c, key);
      }
      c.memory.set(`r39-made:${key}`, true);
      return undefined;
    },
    answer(c, a) {
      const key = renamed.get(c);
      if (key && a.json.meta && typeof a.json.meta === 'object') a.json.meta.idempotencyKey = key;
    },
  },
  {
    name: 'check-unknown-connector-answered-with-decision',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier (a check naming an unknown connector)',
    answer(c, a) {
      // The policy engine evaluates default-deny for anything it cannot find instead of reporting the lookup.
      home(c);
      const b = body(c);
      if (c.method !== 'POST' || c.path !== P('/capabilities') || a.status !== 404 || !b) return;
      const flags = { allowed: false, critical: false, idempotencyRequired: false, reason: 'not released' };
      const decision = { connectorId: String(b.connectorId), capability: String(b.capability), ...flags };
      const environment = typeof b.environment === 'string' ? b.environment : 'sandbox';
      a.status = 200;
      a.json = { ok: true, data: { decision, environment }, meta: a.json.meta };
    },
  },
  {
    name: 'second-tenant-check-default-environment-production',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox (a second tenant’s check too)',
    request(c) {
      // The second tenant only runs production, so its environment value sets the check default to production.
      const second = isSecond(c);
      const b = body(c);
      if (second && c.method === 'POST' && c.path === P('/capabilities') && b && b.environment === undefined)
        c.body = { ...b, environment: 'production' };
      return undefined;
    },
  },
];
