// Catalog and connections: the `catalog` and `connections` handler modules.
import { appendAudit } from './audit.ts';
import { ApiError, type Ctx, invalid, jsonBody, notFound, ok, str } from './http.ts';
import { idempotent } from './idempotency.ts';
import {
  capabilities,
  capability,
  connectors,
  ENVIRONMENTS,
  iso,
  providers,
  type Rec,
  type Store,
  uuid7,
} from './state.ts';
import { publish } from './stream.ts';
import { dispatch } from './webhooks.ts';

export function listProviders(ctx: Ctx): void {
  const category = ctx.url.searchParams.get('category');
  const list = providers.filter((p) => category === null || p.category === category);
  ok(ctx, { count: list.length, providers: list });
}

export function listConnectors(ctx: Ctx): void {
  const q = ctx.url.searchParams;
  const list = connectors.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability'))) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: list.length, connectors: list });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: capabilities.length, capabilities });
}

function environment(v: unknown, fallback?: string): string {
  if (v === undefined && fallback) return fallback;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v))
    throw invalid(`environment: one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

/** A decision for any well-formed pair: an unknown connector is a 404, an unoffered capability "not allowed". */
export function checkCapability(store: Store, ctx: Ctx): void {
  const body = jsonBody(ctx);
  const connectorId = str(body, 'connectorId', 2, 120);
  const cap = str(body, 'capability', 2, 120);
  const env = environment(body.environment, 'sandbox');
  const connector = connectors.find((c) => c.id === connectorId);
  if (!connector && !store.options.unknownConnectorDecision) throw notFound('connector');
  const known = capability(cap);
  const offered = (connector?.capabilities.includes(cap) ?? false) && known !== undefined;
  const decision = {
    connectorId,
    capability: cap,
    allowed: offered,
    critical: known?.critical ?? false,
    idempotencyRequired: known?.idempotencyRequired ?? true,
    reason: offered
      ? 'capability_offered_by_connector'
      : connector
        ? 'capability_not_offered_by_connector'
        : 'unknown_connector',
  };
  ok(ctx, { decision, environment: env });
}

export function listConnections(store: Store, ctx: Ctx): void {
  const list = store.connections.filter((c) => c.tenant === ctx.tenant).map(publicConnection);
  ok(ctx, { tenant: ctx.tenant, count: list.length, connections: list });
}

export function publicConnection(c: Rec): Rec {
  const { tenant: _tenant, ...rest } = c;
  return rest;
}

function validateCreate(body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120);
  const env = environment(body.environment);
  const scopeLabel = str(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) throw invalid('capabilities: 1 to 24 items');
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120)
      throw invalid('capabilities: each a string of length 2 to 120');
  }
  return { connectorId, environment: env, scopeLabel, capabilities: caps as string[] };
}

/** POST /connections: validated, then the connector and its capabilities, then stored as `pending`. */
export function createConnection(store: Store, ctx: Ctx): void {
  idempotent(store, ctx, 'connection.create', () => {
    const input = validateCreate(jsonBody(ctx));
    const connector = connectors.find((c) => c.id === input.connectorId);
    if (!connector) throw notFound('connector');
    const unoffered = input.capabilities.filter((c: string) => !connector.capabilities.includes(c) || !capability(c));
    if (unoffered.length > 0) {
      throw new ApiError(
        409,
        'capability_denied',
        'Capability is not released for this connection',
        `not offered: ${unoffered.join(', ')}`,
      );
    }
    const connection: Rec = {
      id: uuid7(),
      connectorId: connector.id,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: 'pending',
      capabilities: input.capabilities.map((id: string) => {
        const c = capability(id) ?? {};
        return { capability: id, critical: c.critical, idempotencyRequired: c.idempotencyRequired };
      }),
      nextStep: 'await_provider_approval',
      createdAt: iso(),
    };
    store.connections.push({ ...connection, tenant: ctx.tenant });
    const tenant = ctx.tenant ?? '';
    publish(store, tenant, 'connection.created', { connectionId: connection.id, state: connection.state });
    appendAudit(store, tenant, {
      action: 'connection.create',
      resource_type: 'connection',
      resource_id: connection.id,
      actor: ctx.clientId ?? '',
      request_id: ctx.requestId,
    });
    dispatch(store, tenant, 'connection.created', { connection });
    scheduleActivation(store, tenant, connection.id);
    return ok(ctx, connection);
  });
}

/** The approval actor: after a pause the provider approves, the connection turns `active` (stream, webhook, audit). */
function scheduleActivation(store: Store, tenant: string, id: string): void {
  const after = store.options.activateAfterMs;
  if (after === undefined) return;
  setTimeout(() => {
    const row = store.connections.find((c) => c.id === id);
    if (!row || store.closed) return;
    row.state = 'active';
    row.nextStep = 'none';
    publish(store, tenant, 'connection.state_changed', { connectionId: id, state: 'active' });
    appendAudit(store, tenant, {
      action: 'connection.activate',
      resource_type: 'connection',
      resource_id: id,
      actor: 'system',
      request_id: '',
    });
    dispatch(store, tenant, 'connection.state_changed', { connection: publicConnection(row) });
  }, after).unref();
}
