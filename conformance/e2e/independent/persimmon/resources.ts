// Catalog reads, the capability check and connections. Validation follows aeson's `FromJSON` habits:
// missing keys and wrong types are named by their JSON path; unknown keys are ignored.
import { ApiError, type Ctx, fail, type Rec, str, utcNow } from './http.ts';
import { CAPABILITIES, CONNECTORS, ENVIRONMENTS, PROVIDERS, type Store } from './state.ts';

const param = (ctx: Ctx, name: string) => ctx.url.searchParams.get(name) ?? undefined;

export function listProviders(ctx: Ctx): Rec {
  const category = param(ctx, 'category');
  const providers = PROVIDERS.filter((p) => category === undefined || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): Rec {
  const [capability, providerId, category] = ['capability', 'providerId', 'category'].map((n) => param(ctx, n));
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === undefined || c.capabilities.includes(capability)) &&
      (providerId === undefined || c.providerId === providerId) &&
      (category === undefined || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export const listCapabilities = (): Rec => ({ count: CAPABILITIES.length, capabilities: CAPABILITIES });

function environment(body: Rec, required: boolean): string {
  const v = body.environment;
  if (v === undefined && !required) return 'sandbox';
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw fail.badRequest(`Error in $.environment: expected one of ${ENVIRONMENTS.join(', ')}`);
  }
  return v;
}

/** The decision for one pair: a connector that does not exist is a 404; an unoffered capability is "no". */
function decide(connectorId: string, capability: string): Rec {
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw fail.notFound(`connector ${connectorId} does not exist`);
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const offered = cap !== undefined && connector.capabilities.includes(capability);
  return {
    connectorId,
    capability,
    allowed: offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: offered ? 'offered_by_connector' : cap ? 'not_offered_by_connector' : 'unknown_capability',
  };
}

export function checkCapability(body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const capability = str(body, 'capability', 2, 120) ?? '';
  const env = environment(body, false);
  return { decision: decide(connectorId, capability), environment: env };
}

export function listConnections(store: Store, tenant: string): Rec {
  // Persistent's `selectList [ConnectionTenant ==. t] [Asc ConnectionId]`: oldest first.
  const connections = [...store.connections.values()]
    .filter((c) => c.tenant === tenant)
    .map(({ tenant: _t, ...rest }) => rest);
  return { tenant, count: connections.length, connections };
}

/** Validates a creation body before the idempotency store sees it (a refused body is never stored). */
export function validateCreation(body: Rec): { connectorId: string; env: string; scopeLabel: string; caps: string[] } {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body, true);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
  const caps = body.capabilities;
  if (!Array.isArray(caps)) throw fail.badRequest('Error in $.capabilities: expected Array');
  if (caps.length < 1 || caps.length > 24) throw fail.badRequest('Error in $.capabilities: 1 to 24 items');
  caps.forEach((c, i) => {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw fail.badRequest(`Error in $.capabilities[${i}]: expected String of length 2 to 120`);
    }
  });
  return { connectorId, env, scopeLabel, caps: caps as string[] };
}

export function createConnection(store: Store, tenant: string, v: ReturnType<typeof validateCreation>): Rec {
  const entries = v.caps.map((c) => {
    const d = decide(v.connectorId, c);
    if (!d.allowed) {
      throw new ApiError(409, 'capability_denied', `${c} is not released for ${v.connectorId}`, 'book the capability');
    }
    return { capability: c, critical: d.critical, idempotencyRequired: d.idempotencyRequired };
  });
  // States are a Haskell sum type rendered by aeson's `camelTo2 '_'`: provisioning, live, suspended.
  const connection = {
    id: store.key(),
    connectorId: v.connectorId,
    environment: v.env,
    scopeLabel: v.scopeLabel,
    state: 'provisioning',
    capabilities: entries,
    nextStep: v.env === 'production' ? 'await_provider_review' : 'confirm_with_provider',
    createdAt: utcNow(),
  };
  store.connections.set(connection.id, { ...connection, tenant });
  return connection;
}
