// The catalog and the tenant's connections (the Flask blueprints' views behind Connexion's operationIds).
// A connection starts `pending_activation` and a Celery task activates it shortly after, as the sandbox's
// invented providers confirm every request; both changes go to the stream and to subscribed webhooks.
import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { ApiError, type Ctx } from './http.ts';
import { type Connection, type Json, nowIso, type Store } from './state.ts';
import { environment, queryFilter, str, stringList } from './validation.ts';

export type Publish = (tenant: string, event: string, data: Json) => void;

export function listProviders(ctx: Ctx): Json {
  const category = queryFilter(ctx.url.searchParams, 'category');
  const providers = PROVIDERS.filter((p) => category === undefined || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): Json {
  const q = ctx.url.searchParams;
  const [capability, providerId, category] = ['capability', 'providerId', 'category'].map((n) => queryFilter(q, n));
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === undefined || c.capabilities.includes(capability)) &&
      (providerId === undefined || c.providerId === providerId) &&
      (category === undefined || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export const listCapabilities = (): Json => ({ count: CAPABILITIES.length, capabilities: CAPABILITIES });

export function checkCapability(body: Json, refuseProduction = false): Json {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const capability = str(body, 'capability', 2, 120) ?? '';
  const env = environment(body, false) ?? 'sandbox';
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'Connector not found', `No connector '${connectorId}'.`);
  const cap = capabilityById(capability);
  const offered = cap !== undefined && connector.capabilities.includes(capability);
  const blocked = refuseProduction && env === 'production';
  const allowed = offered && !blocked;
  const reason = !cap
    ? 'capability_unknown'
    : blocked
      ? 'production_not_available_in_sandbox'
      : offered
        ? 'offered_by_connector'
        : 'not_offered_by_connector';
  const decision = {
    connectorId,
    capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? true,
    reason,
  };
  return { decision, environment: env };
}

export function connectionView(c: Connection): Json {
  return {
    id: String(c.pk),
    connectorId: c.connector_id,
    environment: c.environment,
    scopeLabel: c.scope_label,
    state: c.state,
    capabilities: c.capabilities.map((id) => {
      const cap = capabilityById(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? true,
      };
    }),
    nextStep: c.state === 'active' ? 'ready' : 'await_provider_confirmation',
    createdAt: c.created_at,
    updated_at: c.updated_at,
  };
}

export function listConnections(store: Store, ctx: Ctx): Json {
  const rows = store.connections.filter((c) => c.tenant === ctx.tenant);
  return { tenant: ctx.tenant, count: rows.length, connections: rows.map(connectionView) };
}

export function getConnection(store: Store, ctx: Ctx, raw: string): Json {
  const c = /^\d{1,12}$/.test(raw) ? store.connections.find((x) => x.pk === Number(raw)) : undefined;
  if (!c || c.tenant !== ctx.tenant) throw new ApiError('not_found', 'Connection not found');
  return connectionView(c);
}

export function createConnection(store: Store, ctx: Ctx, body: Json, publish: Publish, delayMs: number): Json {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body, true) ?? 'sandbox';
  const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
  const capabilities = [...new Set(stringList(body, 'capabilities', 1, 24))];
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'Connector not found', `No connector '${connectorId}'.`);
  if (store.options.sandboxRefusesProduction && env === 'production') {
    throw new ApiError(
      'capability_denied',
      'Production connections are not available in the sandbox',
      undefined,
      'Create production connections in the production environment.',
    );
  }
  const missing = capabilities.filter((c) => !connector.capabilities.includes(c));
  if (missing.length > 0) {
    throw new ApiError(
      'capability_denied',
      'Capability not released for this connector',
      `Not offered: ${missing.join(', ')}`,
      'Have the capability released.',
    );
  }
  const tenant = ctx.tenant ?? '';
  const at = nowIso();
  const c: Connection = {
    pk: store.seq.take('connections'),
    tenant,
    connector_id: connectorId,
    environment: env,
    scope_label: scopeLabel,
    state: 'pending_activation',
    capabilities,
    created_at: at,
    updated_at: at,
  };
  store.connections.push(c);
  record(store, tenant, ctx.clientId ?? '', 'connection.create', 'connection', String(c.pk));
  const created = connectionView(c);
  publish(tenant, 'connection.created', { connection: created });
  setTimeout(() => {
    c.state = 'active';
    c.updated_at = nowIso();
    record(store, tenant, 'system:activation-worker', 'connection.activate', 'connection', String(c.pk));
    publish(tenant, 'connection.activated', { connection: connectionView(c) });
  }, delayMs).unref();
  return created;
}
