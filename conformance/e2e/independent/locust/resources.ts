// The catalog and connection resources (on_get / on_post of Falcon resource classes).
import { record } from './audit.ts';
import { ApiError, type Ctx, jsonBody, ok } from './http.ts';
import { idempotent, requireKey } from './idempotency.ts';
import { CAPABILITIES, CONNECTORS, isoformat, PROVIDERS, type Rec, type Store } from './state.ts';
import { publish } from './stream.ts';
import { check, ENVIRONMENTS, type Errors, oneOf, str, strList } from './validate.ts';
import { dispatch } from './webhooks.ts';

export function listProviders(ctx: Ctx): void {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = ctx.query;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability'))) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

/** POST /capabilities: a decision; an unknown connector or capability is a 404 (the row does not exist). */
export function checkCapability(ctx: Ctx): void {
  const body = jsonBody(ctx);
  const errors: Errors = {};
  str(errors, body, 'connectorId', 2, 120);
  str(errors, body, 'capability', 2, 120);
  oneOf(errors, body, 'environment', ENVIRONMENTS, false);
  check(errors, body, ['connectorId', 'capability', 'environment']);
  const connector = CONNECTORS.find((c) => c.id === body.connectorId);
  const cap = CAPABILITIES.find((c) => c.id === body.capability);
  if (!connector) throw new ApiError('not_found', 'Connector not found.');
  if (!cap) throw new ApiError('not_found', 'Capability not found.');
  const allowed = connector.capabilities.includes(cap.id);
  const decision = {
    connectorId: connector.id,
    capability: cap.id,
    allowed,
    critical: cap.critical,
    idempotencyRequired: cap.idempotencyRequired,
    reason: allowed ? 'Offered by the connector.' : 'The connector does not offer this capability.',
  };
  ok(ctx, { decision, environment: body.environment ?? 'sandbox' });
}

export function listConnections(store: Store, ctx: Ctx): void {
  const connections = store.connections.filter((c) => c.tenant === ctx.tenant).map(view);
  ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

export function getConnection(store: Store, ctx: Ctx, id: string): void {
  const c = store.connections.find((x) => x.id === id && x.tenant === ctx.tenant);
  if (!c) throw new ApiError('not_found', 'Connection not found.');
  ok(ctx, view(c));
}

function view(c: Rec): Rec {
  const { tenant: _t, ...rest } = c;
  return structuredClone(rest);
}

export function createConnection(store: Store, ctx: Ctx): void {
  const key = requireKey(ctx);
  const body = jsonBody(ctx);
  const errors: Errors = {};
  str(errors, body, 'connectorId', 2, 120);
  oneOf(errors, body, 'environment', ENVIRONMENTS);
  str(errors, body, 'scopeLabel', 2, 120);
  strList(errors, body, 'capabilities', 1, 24);
  check(errors, body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  idempotent(store, ctx, key, body, () => {
    const connector = CONNECTORS.find((c) => c.id === body.connectorId);
    if (!connector) throw new ApiError('not_found', 'Connector not found.');
    const caps = (body.capabilities as string[]).map((id) => {
      const cap = CAPABILITIES.find((c) => c.id === id);
      if (!cap || !connector.capabilities.includes(id)) {
        throw new ApiError(
          'capability_denied',
          'Capability is not released for this connector.',
          `capability: ${id}`,
          'Have the capability released.',
        );
      }
      return { capability: id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
    });
    const tenant = ctx.tenant ?? '';
    const conn: Rec = {
      id: String(store.nextId('connections')),
      connectorId: connector.id,
      environment: body.environment,
      scopeLabel: body.scopeLabel,
      state: 'provisioning',
      capabilities: caps,
      nextStep: 'Wait for the provider to finish provisioning.',
      createdAt: isoformat(),
      tenant,
    };
    store.connections.push(conn);
    record(store, tenant, ctx.clientId ?? '', 'connection.create', conn.id);
    publish(store, tenant, 'connection.created', view(conn));
    dispatch(store, tenant, 'connection.created', view(conn));
    // The RQ job that finishes provisioning, a moment later.
    store.later(store.options.activationMs, () => {
      conn.state = 'active';
      conn.nextStep = 'Ready: call the connector with the released capabilities.';
      record(store, tenant, 'worker', 'connection.activate', conn.id);
      publish(store, tenant, 'connection.activated', view(conn));
      dispatch(store, tenant, 'connection.activated', view(conn));
    });
    return view(conn);
  });
}

/** GET /info: who am I (the sample's first call). */
export function info(ctx: Ctx): void {
  ok(ctx, { clientId: ctx.clientId, tenant: ctx.tenant, environment: 'sandbox', service: 'locust' });
}
