import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 30 of the unseen violations, part 1: answers — a key that was replayed once answers every later
 * content with the replay, replays reporting the sandbox environment, the alternate address's catalog
 * with idempotencyRequired as text, creations echoing the provider as connectorId, the second tenant's
 * answers without a request id, issued keys echoing a tenant-prefixed operation, replays without `ok`,
 * allowed checks without X-RateLimit-Limit, and beta connectors listed with capabilities null.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const keyOf = (c: ProxyCall) => c.headers['idempotency-key'] ?? '';
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');

export const ROUND30_ANSWERS: UnseenViolation[] = [
  {
    name: 'conflict-after-replay-served-as-replay',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict (also after a replay).',
    answer(c, a) {
      // The replay cache is filled on the first replay and consulted before the fingerprint comparison,
      // so once a key was replayed any content sent with it gets the stored replay.
      if (!isCreate(c) || !keyOf(c)) return;
      const slot = `r30-replay:${tenantOf(c)}:${keyOf(c)}`;
      if (a.status === 200 && a.json.meta?.replayed === true) c.memory.set(slot, structuredClone(a.json));
      const stored = c.memory.get(slot) as ProxyAnswer['json'] | undefined;
      if (stored && a.status === 409 && a.json.error?.code === 'idempotency_conflict') {
        a.status = 200;
        a.json = structuredClone(stored);
      }
    },
  },
  {
    name: 'replay-environment-reset-to-sandbox',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again',
    answer(c, a) {
      // The replay store's row has no environment column; the answer builder falls back to the default.
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed === true && a.json.data)
        a.json.data.environment = 'sandbox';
    },
  },
  {
    name: 'alt-catalog-idempotency-flag-as-text',
    statement: 'Capability: idempotencyRequired — boolean (GET /api/public/v1/capabilities, under {alt_base_url})',
    answer(c, a) {
      // The alternate domain's catalog is rendered from a CSV export, which writes the flag as text.
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/capabilities') || a.status !== 200) return;
      for (const r of (a.json.data?.capabilities as Rec[] | undefined) ?? [])
        if (r && typeof r.idempotencyRequired === 'boolean') r.idempotencyRequired = String(r.idempotencyRequired);
    },
  },
  {
    name: 'created-connection-connector-id-is-provider-id',
    statement: 'Connection: connectorId — string (data: the Connection created from the body connectorId)',
    answer(c, a) {
      // The creation answer is mapped from a join row where connector and provider both have an "id"
      // column; the provider's wins.
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed || !a.json.data) return;
      const providerId = (a.json.data as Rec).connectorId?.split('-')[0];
      if (providerId) a.json.data.connectorId = providerId;
    },
  },
  {
    name: 'second-tenant-meta-lacks-request-id',
    statement: 'Meta: requestId — string, required (identifier of this call, quoted for support queries)',
    answer(c, a) {
      // The tenant routing layer for further tenants rebuilds meta from the version and time only.
      const first = home(c);
      if (!first || !c.headers.authorization || tenantOf(c) === first || !a.json.meta) return;
      delete a.json.meta.requestId;
    },
  },
  {
    name: 'issued-key-operation-tenant-prefixed',
    statement:
      'POST /api/public/v1/idempotency-keys: Body operation (string) … data: idempotencyKey (string), operation (string), expiresAt',
    answer(c, a) {
      // The key store namespaces the operation by tenant and the answer echoes the stored, namespaced value.
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200 || !a.json.data) return;
      if (typeof a.json.data.operation === 'string') a.json.data.operation = `${tenantOf(c)}/${a.json.data.operation}`;
    },
  },
  {
    name: 'replay-answer-lacks-ok',
    statement: 'Success envelope (every JSON success response): ok — boolean, required, always true',
    answer(c, a) {
      // Replays are served from the stored body, which was saved before the envelope added `ok`.
      if (a.status === 200 && a.json.meta?.replayed === true) delete a.json.ok;
    },
  },
  {
    name: 'allowed-checks-lack-limit-header',
    statement: 'Limits: Response headers: X-RateLimit-Limit (limit for the current window)',
    answer(c, a) {
      // The decision cache answers allowed decisions itself and copies only the remaining header.
      if (!isCheck(c) || a.status !== 200 || a.json.data?.decision?.allowed !== true) return;
      for (const k of Object.keys(a.headers)) if (k.toLowerCase() === 'x-ratelimit-limit') delete a.headers[k];
    },
  },
  {
    name: 'beta-connectors-capabilities-null',
    statement: 'Connector: capabilities — array of string (GET /api/public/v1/connectors)',
    answer(c, a) {
      // Capabilities of beta connectors are loaded lazily, and the list serializes the unloaded relation.
      if (c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200) return;
      for (const r of (a.json.data?.connectors as Rec[] | undefined) ?? [])
        if (r?.status === 'beta') r.capabilities = null;
    },
  },
];
