// Catalog reads, capability checks and connections (provisioning -> ready).
import { ApiError, type Ctx, iso, onlyFields, parseObject, str } from './http.ts';
import {
  CAPABILITIES,
  CONNECTORS,
  type Connection,
  ENVIRONMENTS,
  later,
  nextId,
  PROVIDERS,
  type Store,
} from './state.ts';

function q(ctx: Ctx, name: string): string | null {
  return ctx.url.searchParams.get(name);
}

export function listProviders(ctx: Ctx): unknown {
  const category = q(ctx, 'category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): unknown {
  const capability = q(ctx, 'capability');
  const providerId = q(ctx, 'providerId');
  const category = q(ctx, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): unknown {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

function environmentOf(body: Record<string, unknown>, fallback?: string): string {
  const env = body.environment === undefined ? fallback : body.environment;
  if (typeof env !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(env)) {
    throw new ApiError(
      'invalid_request',
      `environment must be one of ${ENVIRONMENTS.join(', ')}`,
      'param: environment',
    );
  }
  return env;
}

function flags(capability: string): { critical: boolean; idempotencyRequired: boolean } {
  const c = CAPABILITIES.find((x) => x.id === capability);
  return { critical: c?.critical ?? false, idempotencyRequired: c?.idempotencyRequired ?? false };
}

/** POST /capabilities: is the capability offered by the connector (in any environment). */
export function checkCapability(text: string): unknown {
  const body = parseObject(text);
  onlyFields(body, ['connectorId', 'capability', 'environment']);
  const connectorId = str(body, 'connectorId', 2, 120);
  const capability = str(body, 'capability', 2, 120);
  const environment = environmentOf(body, 'sandbox');
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError('not_found', 'connector not found', 'param: connectorId');
  const known = CAPABILITIES.some((c) => c.id === capability);
  const allowed = connector.capabilities.includes(capability);
  const reason = allowed
    ? 'capability_offered_by_connector'
    : known
      ? 'capability_not_offered_by_connector'
      : 'unknown_capability';
  return { decision: { connectorId, capability, allowed, ...flags(capability), reason }, environment };
}

/** Validates a creation body fully before anything is written (strong parameters, then the model). */
export function validateConnection(body: Record<string, unknown>): {
  connectorId: string;
  environment: string;
  scopeLabel: string;
  capabilities: string[];
} {
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = str(body, 'connectorId', 2, 120);
  const environment = environmentOf(body);
  const scopeLabel = str(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', 'capabilities must list 1 to 24 names', 'param: capabilities');
  }
  const named: Record<string, unknown> = {};
  caps.forEach((c, i) => {
    named[`capabilities[${i}]`] = c;
  });
  for (const field of Object.keys(named)) str(named, field, 2, 120);
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError('not_found', 'connector not found', 'param: connectorId');
  for (const c of caps as string[]) {
    if (!connector.capabilities.includes(c)) {
      throw new ApiError('capability_denied', `capability ${c} is not released for this connector`);
    }
  }
  return { connectorId, environment, scopeLabel, capabilities: caps as string[] };
}

export function connectionView(c: Connection): Record<string, unknown> {
  const { tenant, ...rest } = c;
  return { ...rest };
}

/** Creates a connection `provisioning` and turns it `ready` after provisionMs (the job's callback). */
export function createConnection(
  store: Store,
  ctx: Ctx,
  input: ReturnType<typeof validateConnection>,
  onReady: (c: Connection) => void,
): Connection {
  const now = iso();
  const c: Connection = {
    id: nextId(store, 'connections'),
    tenant: ctx.tenant,
    connectorId: input.connectorId,
    environment: input.environment,
    scopeLabel: input.scopeLabel,
    state: 'provisioning',
    capabilities: input.capabilities.map((capability) => ({ capability, ...flags(capability) })),
    nextStep: 'wait_for_provisioning',
    createdAt: now,
    updated_at: now,
  };
  store.connections.push(c);
  later(store, store.options.provisionMs, () => {
    c.state = 'ready';
    c.nextStep = 'start_sending_requests';
    c.updated_at = iso();
    onReady(c);
  });
  return c;
}

export function listConnections(store: Store, ctx: Ctx): unknown {
  const connections = store.connections.filter((c) => c.tenant === ctx.tenant).map(connectionView);
  return { tenant: ctx.tenant, count: connections.length, connections };
}

export function showConnection(store: Store, ctx: Ctx, id: string): unknown {
  const c = store.connections.find((x) => x.id === id && x.tenant === ctx.tenant);
  if (!c) throw new ApiError('not_found', 'connection not found');
  return connectionView(c);
}
