// The catalog, capability checks and connections (the CONNECTIONS table with its sequence), as the Helidon
// routing handlers would call the service layer.
import { ApiError, bad, type Ctx, notFound, offsetDateTime, type Rec, str } from './http.ts';
import { CAPABILITIES, CONNECTORS, capabilityOf, connectorOf, ENVIRONMENTS, PROVIDERS, type Store } from './state.ts';

export function listProviders(ctx: Ctx): Rec {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): Rec {
  const q = ctx.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability'))) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): Rec {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

function environmentOf(body: Rec, fallback?: string): string {
  const env = body.environment ?? fallback;
  if (typeof env !== 'string' || !ENVIRONMENTS.includes(env)) {
    throw bad(`environment: must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return env;
}

/** A decision for a connector and capability: allowed exactly when the connector offers it. */
function decide(connectorId: string, capability: string): Rec {
  const connector = connectorOf(connectorId);
  if (!connector) throw notFound('Connector not found');
  const cap = capabilityOf(capability);
  const offered = connector.capabilities.includes(capability);
  return {
    connectorId,
    capability,
    allowed: offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: offered ? 'CAPABILITY_OFFERED' : cap ? 'CAPABILITY_NOT_OFFERED_BY_CONNECTOR' : 'CAPABILITY_UNKNOWN',
  };
}

export function checkCapability(body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const capability = str(body, 'capability', 2, 120) ?? '';
  const environment = environmentOf(body, 'sandbox');
  return { decision: decide(connectorId, capability), environment };
}

/** Validates a creation body entirely before touching the store (Bean Validation on the request record). */
export function validateConnection(body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const environment = environmentOf(body);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw bad('capabilities: size must be between 1 and 24');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw bad('capabilities[]: each entry must be a string of size 2 to 120');
    }
  }
  const connector = connectorOf(connectorId);
  if (!connector) throw notFound('Connector not found');
  const missing = caps.find((c: string) => !connector.capabilities.includes(c));
  if (missing) {
    throw new ApiError(409, 'capability_denied', 'The capability is not released for this connector', missing);
  }
  return { connectorId, environment, scopeLabel, capabilities: caps as string[] };
}

/** Production connections wait for a review; the others are active at once. States are Java enum names. */
export function createConnection(store: Store, tenant: string, input: Rec): Rec {
  const conn = {
    id: `CN${store.connSeq.next()}`,
    connectorId: input.connectorId,
    environment: input.environment,
    scopeLabel: input.scopeLabel,
    state: input.environment === 'production' ? 'PENDING_REVIEW' : 'ACTIVE',
    capabilities: (input.capabilities as string[]).map((c) => ({
      capability: c,
      critical: capabilityOf(c)?.critical ?? false,
      idempotencyRequired: capabilityOf(c)?.idempotencyRequired ?? false,
    })),
    nextStep:
      input.environment === 'production'
        ? 'Await the provider review; the state changes to ACTIVE when approved'
        : 'Start calling the connector',
    createdAt: offsetDateTime(),
    tenant,
  };
  store.connections.push(conn);
  return conn;
}

export function listConnections(store: Store, tenant: string): Rec {
  const connections = store.connections.filter((c) => c.tenant === tenant).map(({ tenant: _t, ...c }) => c);
  return { tenant, count: connections.length, connections };
}

export function publicConnection(conn: Rec): Rec {
  const { tenant: _t, ...rest } = conn;
  return rest;
}
