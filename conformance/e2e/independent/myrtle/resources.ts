// Catalog and connection handlers (the team's aiohttp views over SQLAlchemy Core tables).
import { randomUUID } from 'node:crypto';
import { appendAudit } from './audit.ts';
import { ApiError, type Ctx, isoNow, type Rec, str } from './http.ts';
import { CAPABILITIES, CONNECTORS, ENVIRONMENTS, PROVIDERS, publish, type Store } from './state.ts';
import { deliverEvent } from './webhooks.ts';

export function listProviders(ctx: Ctx): Rec {
  const cat = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => !cat || p.category === cat);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): Rec {
  const q = ctx.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (!q.get('capability') || c.capabilities.includes(q.get('capability') ?? '')) &&
      (!q.get('providerId') || c.providerId === q.get('providerId')) &&
      (!q.get('category') || c.category === q.get('category')),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): Rec {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

function env(body: Rec, required: boolean): string {
  const e = body.environment;
  if (e === undefined && !required) return 'sandbox';
  if (typeof e !== 'string' || !ENVIRONMENTS.includes(e))
    throw new ApiError('invalid_request', `Field environment must be one of ${ENVIRONMENTS.join(', ')}.`);
  return e;
}

export function checkCapability(body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120);
  const capability = str(body, 'capability', 2, 120);
  const environment = env(body, false);
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError('not_found', 'Connector not found.');
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const allowed = Boolean(cap && connector.capabilities.includes(capability));
  const reason = allowed ? 'capability_offered' : cap ? 'capability_not_offered_by_connector' : 'unknown_capability';
  const decision = {
    connectorId,
    capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? true,
    reason,
  };
  return { decision, environment };
}

export function listConnections(s: Store, ctx: Ctx): Rec {
  const connections = s.connections.filter((c) => c.tenant === ctx.tenant).map(({ tenant: _t, ...c }) => c);
  return { tenant: ctx.tenant, count: connections.length, connections };
}

/** Validates everything before any effect, so a refusal stores nothing. */
export function createConnection(s: Store, ctx: Ctx, body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120);
  const environment = env(body, true);
  const scopeLabel = str(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24)
    throw new ApiError('invalid_request', 'Field capabilities must hold 1 to 24 items.');
  for (let i = 0; i < caps.length; i++) str(caps, String(i), 2, 120);
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError('not_found', 'Connector not found.');
  for (const c of caps as string[])
    if (!connector.capabilities.includes(c))
      throw new ApiError('capability_denied', 'Capability is not released for this connector.');
  const conn = {
    id: randomUUID(),
    connectorId,
    environment,
    scopeLabel,
    state: 'pending_activation',
    capabilities: (caps as string[]).map((c) => {
      const cap = CAPABILITIES.find((x) => x.id === c);
      return { capability: c, critical: cap?.critical ?? false, idempotencyRequired: cap?.idempotencyRequired ?? true };
    }),
    nextStep: 'await_provider_approval',
    createdAt: isoNow(),
  };
  s.connections.push({ ...conn, tenant: ctx.tenant });
  publish(s, 'connection.created', { connectionId: conn.id, state: conn.state });
  appendAudit(s, String(ctx.tenant), 'connection.created', conn.id);
  deliverEvent(s, String(ctx.tenant), 'connection.created', conn);
  return conn;
}
