// The authenticated operations of the interface (and maple's additions: /info, the delivery log and
// redelivery, the audit log), each taking the parsed call and answering data or an ApiError.
import { randomBytes } from 'node:crypto';
import { capabilities, capabilityById, connectorById, connectors, providers } from './catalog.ts';
import { ApiError } from './http-kit.ts';
import type { Connection, Store } from './store.ts';
import { newId } from './store.ts';
import { capabilityList, environment, onlyFields, text } from './validate.ts';
import type { Webhooks } from './webhooks.ts';
import { deliveryView } from './webhooks.ts';

export interface Ctx {
  tenant: string;
  clientId: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
  strict: boolean;
  store: Store;
  hooks: Webhooks;
}

const KEY_VALIDITY_MS = 3600 * 1000;

function filter<T extends Record<string, unknown>>(items: T[], query: URLSearchParams, fields: string[]) {
  return items.filter((item) =>
    fields.every((f) => {
      const want = query.get(f);
      if (want === null) return true;
      // ?capability matches an entry of a connector's capabilities list
      const have = item[f === 'capability' ? 'capabilities' : f];
      return Array.isArray(have) ? have.includes(want) : have === want;
    }),
  );
}

export function listProviders(c: Ctx) {
  const list = filter(providers, c.query, ['category']);
  return { count: list.length, providers: list };
}

export function listConnectors(c: Ctx) {
  const list = filter(connectors, c.query, ['capability', 'providerId', 'category']);
  return { count: list.length, connectors: list };
}

export function listCapabilities() {
  return { count: capabilities.length, capabilities };
}

export function checkCapability(c: Ctx) {
  if (c.strict) onlyFields(c.body, ['connectorId', 'capability', 'environment']);
  const connectorId = text(c.body, 'connectorId', 2, 120) as string;
  const capability = text(c.body, 'capability', 2, 120) as string;
  const env = environment(c.body, false);
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'no such connector', 'compare the identifier with GET /connectors');
  const known = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !known
    ? 'capability_unknown'
    : offered
      ? 'capability_offered_by_connector'
      : 'capability_not_offered_by_connector';
  return {
    decision: {
      connectorId,
      capability,
      allowed: Boolean(known && offered),
      critical: known?.critical ?? false,
      idempotencyRequired: known?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  };
}

export function listConnections(c: Ctx) {
  const list = c.store.connectionsOf(c.tenant);
  return { tenant: c.tenant, count: list.length, connections: list };
}

export function createConnection(c: Ctx): Connection {
  if (c.strict) onlyFields(c.body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = text(c.body, 'connectorId', 2, 120) as string;
  const env = environment(c.body, true);
  const scopeLabel = text(c.body, 'scopeLabel', 2, 120) as string;
  const caps = capabilityList(c.body);
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'no such connector', 'compare the identifier with GET /connectors');
  for (const cap of caps) {
    if (!connector.capabilities.includes(cap)) {
      throw new ApiError(
        'capability_denied',
        `capability ${cap} is not released for this connector`,
        'have the capability released',
      );
    }
  }
  const connection: Connection = {
    id: newId('conn'),
    connectorId,
    environment: env,
    scopeLabel,
    state: 'active',
    capabilities: [...new Set(caps)].map((cap) => {
      const known = capabilityById(cap);
      return {
        capability: cap,
        critical: known?.critical ?? false,
        idempotencyRequired: known?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'start_using_capabilities',
    createdAt: new Date().toISOString(),
  };
  c.store.connectionsOf(c.tenant).push(connection);
  c.store.appendAudit(c.tenant, 'connection.create', c.clientId, connection.id);
  c.store.publish({
    type: 'connection.created',
    connectionId: connection.id,
    state: connection.state,
    at: connection.createdAt,
  });
  c.hooks.emit(c.tenant, 'connection.created', connection);
  return connection;
}

export function createIdempotencyKey(c: Ctx) {
  if (c.strict) onlyFields(c.body, ['operation']);
  const operation = text(c.body, 'operation', 2, 80) as string;
  return {
    idempotencyKey: `mk_${randomBytes(16).toString('hex')}`,
    operation,
    expiresAt: new Date(Date.now() + KEY_VALIDITY_MS).toISOString(),
  };
}

export function createWebhook(c: Ctx) {
  if (c.strict) onlyFields(c.body, ['url', 'events']);
  const hook = c.hooks.register(c.tenant, c.body);
  c.store.appendAudit(c.tenant, 'webhook.create', c.clientId, hook.id);
  return { id: hook.id, url: hook.url, events: hook.events, signingKey: hook.signingKey, createdAt: hook.createdAt };
}

/** AIP-158: pageSize (1..100, default 50), opaque pageToken, nextPageToken while more follow. */
function page<T>(items: T[], query: URLSearchParams, sizeParam = 'pageSize') {
  const rawSize = query.get(sizeParam) ?? query.get('pageSize');
  const size = rawSize === null ? 50 : Number(rawSize);
  if (!Number.isInteger(size) || size < 1 || size > 100) {
    throw new ApiError('invalid_request', `${sizeParam} must be an integer from 1 to 100`);
  }
  const token = query.get('pageToken');
  let start = 0;
  if (token !== null && token !== '') {
    start = Number(Buffer.from(token, 'base64url').toString('utf8').replace(/^o:/, ''));
    if (!Number.isInteger(start) || start < 0) throw new ApiError('invalid_request', 'pageToken is not valid');
  }
  const slice = items.slice(start, start + size);
  const next = start + size < items.length ? Buffer.from(`o:${start + size}`).toString('base64url') : undefined;
  return { slice, next };
}

export function listDeliveries(c: Ctx, hookId: string) {
  const hook = c.hooks.ownHook(c.tenant, hookId);
  const all = [...(c.hooks.deliveries.get(hook.id) ?? [])].reverse().map(deliveryView);
  const { slice, next } = page(all, c.query);
  return next ? { deliveries: slice, nextPageToken: next } : { deliveries: slice };
}

export function redeliver(c: Ctx, hookId: string, deliveryId: string) {
  const d = c.hooks.redeliver(c.tenant, hookId, deliveryId);
  c.store.appendAudit(c.tenant, 'webhook.delivery.redeliver', c.clientId, d.id);
  return deliveryView(d);
}

/** Newest first; the proof names the chain's head hash and length (over the whole chain). */
export function auditLog(c: Ctx) {
  const chain = c.store.audit.get(c.tenant) ?? [];
  const { slice, next } = page([...chain].reverse(), c.query, c.query.has('limit') ? 'limit' : 'pageSize');
  const proof = {
    type: 'hash-chain',
    digest: 'SHA-256',
    head: chain.at(-1)?.hash ?? '0'.repeat(64),
    size: chain.length,
  };
  return next ? { entries: slice, proof, nextPageToken: next } : { entries: slice, proof };
}
