// The handlers of cedar's API operations (catalog, decisions, connections, keys, webhooks, audit, info).

import { auditPage } from './audit.ts';
import type { Principal } from './auth.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import type { Ctx } from './http-kit.ts';
import { ApiError, readJsonObject, sendOk } from './http-kit.ts';
import { goTime, newId } from './ids.ts';
import type { Connection, Store } from './store.ts';
import { IDEMPOTENCY_TTL_MS } from './store.ts';
import { environment, onlyFields, text, textList } from './validate.ts';
import type { Webhooks } from './webhooks.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export type Deps = {
  store: Store;
  webhooks: Webhooks;
  activationMs: number;
  redactKeyOnReplay?: boolean;
  auditOldestFirst?: boolean;
  /** variant: critical capabilities are not booked for production (decided "not allowed", creation 409) */
  productionCriticalDenied?: boolean;
};
export type Handler = (ctx: Ctx, p: Principal, deps: Deps, params: string[]) => Promise<unknown> | unknown;

function capEntry(id: string) {
  const c = capabilityById(id);
  return { capability: id, critical: c ? c.critical : false, idempotencyRequired: c ? c.idempotencyRequired : false };
}

export const listProviders: Handler = (ctx) => {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  sendOk(ctx, { count: providers.length, providers }, { etag: true });
};

export const listConnectors: Handler = (ctx) => {
  const q = ctx.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  sendOk(ctx, { count: connectors.length, connectors }, { etag: true });
};

export const listCapabilities: Handler = (ctx) => {
  sendOk(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES }, { etag: true });
};

export const checkCapability: Handler = async (ctx, _p, deps) => {
  const body = await readJsonObject(ctx);
  onlyFields(body, ['connectorId', 'capability', 'environment']);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body, 'environment', 'sandbox');
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'no connector with this id', 'list connectors with GET /connectors');
  const known = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const restricted = deps.productionCriticalDenied === true && env === 'production' && known?.critical === true;
  const reason = !known
    ? 'unknown_capability'
    : !offered
      ? 'not_offered_by_connector'
      : restricted
        ? 'not_booked_for_production'
        : 'offered_by_connector';
  sendOk(ctx, {
    decision: { connectorId, capability, allowed: offered && !!known && !restricted, ...flags(capability), reason },
    environment: env,
  });
};
function flags(id: string) {
  const { critical, idempotencyRequired } = capEntry(id);
  return { critical, idempotencyRequired };
}

export const listConnections: Handler = (ctx, p, { store }) => {
  const connections = store.list(p.tenant);
  sendOk(ctx, { tenant: p.tenant, count: connections.length, connections });
};

export const getConnection: Handler = (ctx, p, { store }, [id]) => {
  const c = store.list(p.tenant).find((x) => x.id === id);
  if (!c) throw new ApiError('not_found', 'no connection with this id for this tenant');
  sendOk(ctx, c);
};

/** Body validation of a creation; runs before the idempotency record is consulted. */
export async function connectionBody(ctx: Ctx): Promise<Record<string, unknown>> {
  const body = await readJsonObject(ctx);
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  text(body, 'connectorId', 2, 120);
  environment(body, 'environment');
  text(body, 'scopeLabel', 2, 120);
  textList(body, 'capabilities', 1, 24);
  return body;
}

export function createConnection(
  p: Principal,
  deps: Deps,
  body: Record<string, unknown>,
  requestId: string,
): Connection {
  const connectorId = String(body.connectorId);
  const capabilities = body.capabilities as string[];
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'no connector with this id', 'list connectors with GET /connectors');
  const missing = capabilities.find((c) => !connector.capabilities.includes(c));
  if (missing !== undefined) {
    throw new ApiError(
      'capability_denied',
      `the connector does not offer ${missing}`,
      'have the capability released, or choose another connector',
    );
  }
  const critical = capabilities.find((id) => capabilityById(id)?.critical);
  if (deps.productionCriticalDenied && body.environment === 'production' && critical !== undefined) {
    throw new ApiError(
      'capability_denied',
      `${critical} is not booked for production`,
      'have the capability released for production',
    );
  }
  const now = goTime();
  const c: Connection = {
    id: newId('conn'),
    connectorId,
    environment: String(body.environment),
    scopeLabel: String(body.scopeLabel),
    state: 'provisioning',
    capabilities: capabilities.map(capEntry),
    nextStep: 'wait_for_activation',
    createdAt: now,
    updatedAt: now,
  };
  const { store } = deps;
  store.add(p.tenant, c);
  store.record(p.tenant, {
    action: 'connection.create',
    actor: p.client.id,
    targetType: 'connection',
    targetId: c.id,
    requestId,
  });
  store.publish(p.tenant, 'connection.created', {
    connectionId: c.id,
    connectorId,
    environment: c.environment,
    state: c.state,
  });
  const snapshot = structuredClone(c);
  const timer = setTimeout(() => {
    c.state = 'active';
    c.nextStep = 'none';
    c.updatedAt = goTime();
    store.record(p.tenant, {
      action: 'connection.activate',
      actor: 'system',
      targetType: 'connection',
      targetId: c.id,
      requestId,
    });
    store.publish(p.tenant, 'connection.activated', {
      connectionId: c.id,
      connectorId,
      environment: c.environment,
      state: c.state,
    });
  }, deps.activationMs);
  timer.unref();
  return snapshot;
}

export async function keyBody(ctx: Ctx): Promise<Record<string, unknown>> {
  const body = await readJsonObject(ctx);
  onlyFields(body, ['operation']);
  text(body, 'operation', 2, 80);
  return body;
}
export function issueKey(body: Record<string, unknown>): Record<string, unknown> {
  return {
    idempotencyKey: newId('idk'),
    operation: body.operation,
    expiresAt: goTime(Date.now() + IDEMPOTENCY_TTL_MS),
  };
}

export async function webhookBody(ctx: Ctx): Promise<Record<string, unknown>> {
  const body = await readJsonObject(ctx);
  onlyFields(body, ['url', 'events']);
  const url = text(body, 'url', 8, 2048);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError('invalid_request', 'url must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new ApiError('invalid_request', 'url must be http(s)');
  const events = textList(body, 'events', 1, 20);
  const unknown = events.find((e) => !WEBHOOK_EVENTS.includes(e));
  if (unknown !== undefined)
    throw new ApiError('invalid_request', `unknown event ${unknown}`, `events: ${WEBHOOK_EVENTS.join(', ')}`);
  return body;
}
export function registerWebhook(p: Principal, deps: Deps, body: Record<string, unknown>, requestId: string) {
  const data = deps.webhooks.register(p.tenant, String(body.url), body.events as string[]);
  deps.store.record(p.tenant, {
    action: 'webhook.create',
    actor: p.client.id,
    targetType: 'webhook',
    targetId: String(data.id),
    requestId,
  });
  return data;
}

export const listWebhooks: Handler = (ctx, p, { webhooks }) => {
  const list = webhooks.list(p.tenant);
  sendOk(ctx, { count: list.length, webhooks: list });
};
export const getWebhook: Handler = (ctx, p, { webhooks }, [id]) => sendOk(ctx, webhooks.get(p.tenant, id ?? ''));
export const webhookAttempts: Handler = (ctx, p, { webhooks }, [id]) =>
  sendOk(ctx, webhooks.attempts(p.tenant, id ?? ''));

export const auditLog: Handler = (ctx, p, { store, auditOldestFirst }) =>
  sendOk(ctx, auditPage(ctx, store, p.tenant, auditOldestFirst));

export const info: Handler = (ctx, p) => {
  sendOk(ctx, {
    service: 'cedar',
    environment: 'sandbox',
    tenant: p.tenant,
    clientId: p.client.id,
    purpose: p.client.purpose,
    owner: p.client.owner,
    tenants: p.client.tenants,
    tokenExpiresAt: goTime(p.token.expiresAt),
  });
};
