// Catalog, capability checks, connections and idempotency keys (the contract's own endpoints).
import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { ApiError, type Caller, type Ctx, newId, ok, stamp } from './http-kit.ts';
import { KEY_LIFETIME_MS, once, requireKey } from './idempotency.ts';
import type { Connection, Store } from './state.ts';
import { environment, onlyFields, text, textList } from './validate.ts';
import { notify } from './webhooks.ts';

export function listProviders(ctx: Ctx): void {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = ctx.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

/** POST /capabilities: an unknown connector is 404; an unknown or unoffered capability is "not allowed". */
export function checkCapability(store: Store, ctx: Ctx, body: Record<string, unknown>): void {
  onlyFields(body, ['connectorId', 'capability', 'environment'], ctx.lenientBinding);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body, 'environment', 'sandbox');
  once(store, ctx, body, () => {
    const connector = connectorById(connectorId);
    if (!connector)
      throw new ApiError(
        'not_found',
        'The connector does not exist.',
        undefined,
        'Compare the identifier with GET /api/public/v1/connectors.',
      );
    const cap = capabilityById(capability);
    const offered = connector.capabilities.includes(capability);
    const reason = !cap
      ? 'CapabilityUnknown: not in the catalog.'
      : offered
        ? 'CapabilityOffered: the connector offers this capability.'
        : 'CapabilityNotOffered: the connector does not offer this capability.';
    const decision = {
      connectorId,
      capability,
      allowed: Boolean(cap) && offered,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    };
    return { decision, environment: env };
  });
}

export function view(c: Connection): Record<string, unknown> {
  const { tenant: _tenant, ...rest } = c;
  return rest;
}

export function listConnections(store: Store, ctx: Ctx, caller: Caller): void {
  const connections = store.connections.filter((c) => c.tenant === caller.tenant).map(view);
  ok(ctx, { tenant: caller.tenant, count: connections.length, connections });
}

function streamData(c: Connection): Record<string, unknown> {
  // The stream is public: it names the connection and its state, never the tenant or the scope label.
  return {
    connectionId: c.id,
    connectorId: c.connectorId,
    environment: c.environment,
    state: c.state,
    occurredAt: stamp(),
  };
}

export function createConnection(store: Store, ctx: Ctx, caller: Caller, body: Record<string, unknown>): void {
  requireKey(ctx);
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities'], ctx.lenientBinding);
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body, 'environment');
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const capabilities = textList(body, 'capabilities', 1, 24, 2, 120);
  once(store, ctx, body, () => {
    const connector = connectorById(connectorId);
    if (!connector)
      throw new ApiError(
        'not_found',
        'The connector does not exist.',
        undefined,
        'Compare the identifier with GET /api/public/v1/connectors.',
      );
    const caps = capabilities.map((name) => {
      const cap = capabilityById(name);
      if (!cap || !connector.capabilities.includes(name)) {
        throw new ApiError(
          'capability_denied',
          'The capability is not released for this connection.',
          `The connector does not offer '${name}'.`,
          'Have the capability released.',
        );
      }
      return { capability: name, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
    });
    const c: Connection = {
      id: newId(),
      tenant: caller.tenant,
      connectorId,
      environment: env,
      scopeLabel,
      state: 'Pending',
      capabilities: caps,
      nextStep: 'WaitForActivation',
      createdAt: stamp(),
    };
    store.connections.push(c);
    const who = { actor: caller.clientId, requestId: ctx.requestId, idempotencyKey: ctx.idempotencyKey };
    record(store, caller.tenant, 'connection.create', 'connection', c.id, who);
    store.publish('connection.created', streamData(c));
    notify(store, caller.tenant, 'connection.created', view(c));
    store.later(store.options.activationMs, () => {
      c.state = 'Active';
      c.nextStep = 'None';
      record(store, caller.tenant, 'connection.activate', 'connection', c.id, {
        actor: 'system',
        requestId: ctx.requestId,
      });
      store.publish('connection.activated', streamData(c));
      notify(store, caller.tenant, 'connection.activated', view(c));
    });
    return view(c);
  });
}

/** POST /idempotency-keys: a fresh key for the named operation, valid 24 h from now. */
export function issueKey(store: Store, ctx: Ctx, body: Record<string, unknown>): void {
  onlyFields(body, ['operation'], ctx.lenientBinding);
  const operation = text(body, 'operation', 2, 80);
  once(store, ctx, body, () => {
    const idempotencyKey = `idk_${newId().replaceAll('-', '')}`;
    const expires = Date.now() + KEY_LIFETIME_MS;
    store.issuedKeys.set(idempotencyKey, expires);
    return { idempotencyKey, operation, expiresAt: stamp(expires) };
  });
}

export function info(store: Store, ctx: Ctx, caller: Caller): void {
  const t = store.tokens.get(caller.token);
  ok(ctx, {
    tenant: caller.tenant,
    clientId: caller.clientId,
    environment: 'sandbox',
    tokenExpiresAt: t ? stamp(t.expiresAt) : null,
  });
}
