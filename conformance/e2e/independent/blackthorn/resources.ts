// Catalog and connection handlers. States of a connection (not shown by the contract): "pending-review" on
// creation, "active" once the provider's review passes a moment later.
import { record } from './audit.ts';
import { ApiError, type Ctx, ok, parseJson } from './http.ts';
import { idempotencyBefore, okRemembered } from './idempotency.ts';
import { ENVIRONMENTS, instant, later, type Rec, type Store, uuid } from './state.ts';
import { publish } from './stream.ts';
import { validate } from './validate.ts';

const only = (list: Rec[], field: string, value: string | null) =>
  value === null ? list : list.filter((x) => x[field] === value);

export function listProviders(store: Store, ctx: Ctx) {
  const providers = only(store.providers, 'category', ctx.url.searchParams.get('category'));
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(store: Store, ctx: Ctx) {
  const q = ctx.url.searchParams;
  let connectors = only(only(store.connectors, 'providerId', q.get('providerId')), 'category', q.get('category'));
  const cap = q.get('capability');
  if (cap !== null) connectors = connectors.filter((c) => c.capabilities.includes(cap));
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(store: Store, ctx: Ctx) {
  ok(ctx, { count: store.capabilities.length, capabilities: store.capabilities });
}

function decide(store: Store, connectorId: string, capability: string) {
  const connector = store.connectors.find((c) => c.id === connectorId);
  if (!connector)
    throw new ApiError(404, 'not_found', 'Unknown connector', `connectorId: ${connectorId} does not exist`);
  const cap = store.capabilities.find((c) => c.id === capability);
  const offered = connector.capabilities.includes(capability);
  return {
    connectorId,
    capability,
    allowed: Boolean(cap) && offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? true,
    reason: !cap ? 'capability-unknown' : offered ? 'offered-by-connector' : 'not-offered-by-connector',
  };
}

export function checkCapability(store: Store, ctx: Ctx) {
  const body = parseJson(ctx);
  validate(
    {
      connectorId: { kind: 'string', min: 2, max: 120 },
      capability: { kind: 'string', min: 2, max: 120 },
      environment: { kind: 'string', min: 1, max: 40, optional: true, enum: ENVIRONMENTS },
    },
    body,
  );
  ok(ctx, { decision: decide(store, body.connectorId, body.capability), environment: body.environment ?? 'sandbox' });
}

export function listConnections(store: Store, ctx: Ctx) {
  const tenant = ctx.tenant ?? '';
  const connections = store.connections.get(tenant) ?? [];
  ok(ctx, { tenant, count: connections.length, connections });
}

export function createConnection(store: Store, ctx: Ctx) {
  const body = parseJson(ctx);
  if (idempotencyBefore(store, ctx, body)) return;
  validate(
    {
      connectorId: { kind: 'string', min: 2, max: 120 },
      environment: { kind: 'string', min: 1, max: 40, enum: ENVIRONMENTS },
      scopeLabel: { kind: 'string', min: 2, max: 120 },
      capabilities: { kind: 'strings', minItems: 1, maxItems: 24, min: 2, max: 120 },
    },
    body,
  );
  const tenant = ctx.tenant ?? '';
  const caps = [...new Set<string>(body.capabilities)].map((c) => decide(store, body.connectorId, c));
  const denied = caps.find((d) => !d.allowed);
  if (denied) {
    throw new ApiError(
      409,
      'capability_denied',
      'Capability is not released for this connector',
      `capabilities: ${denied.capability} is ${denied.reason}`,
      'Have the capability released',
    );
  }
  const connection: Rec = {
    id: uuid(),
    connectorId: body.connectorId,
    environment: body.environment,
    scopeLabel: body.scopeLabel,
    state: 'pending-review',
    capabilities: caps.map((d) => ({
      capability: d.capability,
      critical: d.critical,
      idempotencyRequired: d.idempotencyRequired,
    })),
    nextStep: 'await-provider-review',
    createdAt: instant(),
  };
  const list = store.connections.get(tenant) ?? [];
  list.push(connection);
  store.connections.set(tenant, list);
  record(store, tenant, 'connection.created', connection.id, ctx.clientId);
  publish(store, tenant, 'connection.created', connection);
  later(store, store.opts.activationMs, () => {
    connection.state = 'active';
    connection.nextStep = 'none';
    record(store, tenant, 'connection.activated', connection.id, 'system');
    publish(store, tenant, 'connection.activated', connection);
  });
  okRemembered(store, ctx, body, { ...connection });
}
