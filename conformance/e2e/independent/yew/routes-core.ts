// Catalog, capability checks, connections and idempotency keys.
import { CAPABILITIES, CONNECTORS, decide, findCapability, findConnector, PROVIDERS } from './catalog.ts';
import type { Ctx } from './http-util.ts';
import { invalid, isoNow, newGuid, sendError, sendOk } from './http-util.ts';
import type { App, Caller, Connection } from './pipeline.ts';
import { keyed } from './pipeline.ts';
import * as v from './validate.ts';

export function listProviders(ctx: Ctx) {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  sendOk(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx) {
  const q = ctx.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  sendOk(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx) {
  sendOk(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export function checkCapability(app: App, ctx: Ctx, caller: Caller) {
  return keyed(app, ctx, caller, 'capabilities.check', false, (body) => {
    const errors: v.Errors = {};
    const connectorId = v.text(body, 'connectorId', 2, 120, errors);
    const capability = v.text(body, 'capability', 2, 120, errors);
    const environment = v.environment(body, 'environment', errors, false);
    if (v.hasErrors(errors) || !connectorId || !capability || !environment) return void invalid(ctx, errors);
    const connector = findConnector(connectorId);
    if (!connector) return void sendError(ctx, 404, 'not_found', { detail: 'No connector has this id.' });
    return { status: 200, data: { decision: decide(connector, capability), environment } };
  });
}

export function listConnections(app: App, ctx: Ctx, caller: Caller) {
  const connections = app.connections.get(caller.tenant) ?? [];
  sendOk(ctx, { tenant: caller.tenant, count: connections.length, connections });
}

export function getConnection(app: App, ctx: Ctx, caller: Caller, id: string) {
  const c = (app.connections.get(caller.tenant) ?? []).find((x) => x.id === id);
  if (!c) return sendError(ctx, 404, 'not_found', { detail: 'No connection of this tenant has this id.' });
  sendOk(ctx, c);
}

/** Moves a new connection to active after a short provisioning delay, and tells stream, webhooks and audit. */
function scheduleActivation(app: App, tenant: string, c: Connection) {
  const timer = setTimeout(() => {
    app.timers.delete(timer);
    c.state = 'active';
    c.nextStep = 'none';
    c.updatedAt = isoNow();
    app.audit.record(tenant, {
      actor: 'system',
      action: 'connection.activated',
      resourceType: 'connection',
      resourceId: c.id,
    });
    app.hub.publish(tenant, 'connection.activated', { ...c });
    app.webhooks.emit(tenant, 'connection.activated', c.id, { ...c });
  }, app.activationMs);
  app.timers.add(timer);
}

export function createConnection(app: App, ctx: Ctx, caller: Caller) {
  return keyed(app, ctx, caller, 'connections.create', true, (body) => {
    const errors: v.Errors = {};
    const connectorId = v.text(body, 'connectorId', 2, 120, errors);
    const environment = v.environment(body, 'environment', errors, true);
    const scopeLabel = v.text(body, 'scopeLabel', 2, 120, errors);
    const capabilities = v.textList(body, 'capabilities', { minItems: 1, maxItems: 24, min: 2, max: 120 }, errors);
    if (v.hasErrors(errors) || !connectorId || !environment || !scopeLabel || !capabilities)
      return void invalid(ctx, errors);
    const connector = findConnector(connectorId);
    if (!connector) return void sendError(ctx, 404, 'not_found', { detail: 'No connector has this id.' });
    const denied = capabilities.filter((c) => !connector.capabilities.includes(c));
    if (denied.length > 0) {
      return void sendError(ctx, 409, 'capability_denied', {
        detail: `Not released for this connector: ${denied.join(', ')}.`,
        hint: 'Have the capability released, or book only capabilities the connector offers.',
      });
    }
    const now = isoNow();
    const connection: Connection = {
      id: newGuid(),
      connectorId,
      environment,
      scopeLabel,
      state: 'pending',
      capabilities: capabilities.map((capability) => {
        const cap = findCapability(capability);
        return { capability, critical: cap?.critical ?? false, idempotencyRequired: cap?.idempotencyRequired ?? false };
      }),
      nextStep: 'awaitActivation',
      createdAt: now,
      updatedAt: now,
    };
    const list = app.connections.get(caller.tenant) ?? [];
    list.push(connection);
    app.connections.set(caller.tenant, list);
    const key = String(ctx.req.headers['idempotency-key']);
    app.audit.record(caller.tenant, {
      actor: caller.clientId,
      action: 'connection.created',
      resourceType: 'connection',
      resourceId: connection.id,
      idempotencyKey: key,
    });
    app.hub.publish(caller.tenant, 'connection.created', { ...connection });
    app.webhooks.emit(caller.tenant, 'connection.created', connection.id, { ...connection });
    scheduleActivation(app, caller.tenant, connection);
    return { status: 200, data: { ...connection } };
  });
}

export function issueKey(app: App, ctx: Ctx, caller: Caller) {
  return keyed(app, ctx, caller, 'idempotency-keys.create', false, (body) => {
    const errors: v.Errors = {};
    const operation = v.text(body, 'operation', 2, 80, errors);
    if (v.hasErrors(errors) || !operation) return void invalid(ctx, errors);
    const idempotencyKey = newGuid();
    const expiresAt = app.idem.issue(idempotencyKey, operation);
    return { status: 200, data: { idempotencyKey, operation, expiresAt: isoNow(expiresAt) } };
  });
}

export function info(ctx: Ctx, caller: Caller) {
  sendOk(ctx, {
    tenant: caller.tenant,
    clientId: caller.clientId,
    environment: 'sandbox',
    tokenExpiresAt: isoNow(caller.tokenExpiresAt),
    purpose: 'Conformance and integration testing with invented data',
    owner: 'platform-integrations@yew.example',
  });
}
