// The Jersey resources of palmetto's catalog and connections: CatalogResource, CapabilityResource and
// ConnectionResource. Enum-valued fields (state, nextStep) are written as Jackson writes a Java enum: its name.
import { ApiError, type Ctx, ok, type Rec, str } from './http.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, ENVIRONMENTS, PROVIDERS, type Store } from './state.ts';

/** What a created connection sets off: an audit row, a stream message, webhook deliveries. */
export type OnCreated = (ctx: Ctx, connection: Rec) => void;

const byQuery = (ctx: Ctx, rows: Rec[], fields: string[]): Rec[] =>
  rows.filter((r) =>
    fields.every((f) => {
      const q = ctx.url.searchParams.get(f);
      if (q === null) return true;
      return f === 'capability' ? (r.capabilities as string[]).includes(q) : r[f] === q;
    }),
  );

export function listProviders(ctx: Ctx): void {
  const providers = byQuery(ctx, PROVIDERS, ['category']);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const connectors = byQuery(ctx, CONNECTORS, ['capability', 'providerId', 'category']);
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

function environment(body: Rec, required: boolean): string {
  const env = body.environment;
  if (env === undefined && !required) return 'sandbox';
  if (typeof env !== 'string' || !ENVIRONMENTS.includes(env)) {
    throw new ApiError(
      400,
      'invalid_request',
      `environment must be one of [${ENVIRONMENTS.join(', ')}]`,
      'body.environment',
    );
  }
  return env;
}

/** POST /capabilities: an unknown connector is a 404 (NotFoundException), an unlisted capability a "no". */
export function checkCapability(ctx: Ctx, body: Rec): void {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const capability = str(body, 'capability', 2, 120) ?? '';
  const env = environment(body, false);
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError(404, 'not_found', `Connector ${connectorId} not found`);
  const cap = capabilityById(capability);
  const allowed = !!cap && (connector.capabilities as string[]).includes(capability);
  const reason = !cap ? 'CAPABILITY_UNKNOWN' : allowed ? 'CAPABILITY_OFFERED' : 'CAPABILITY_NOT_OFFERED_BY_CONNECTOR';
  const decision = {
    connectorId,
    capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? true,
    reason,
  };
  ok(ctx, { decision, environment: env });
}

export function listConnections(ctx: Ctx, store: Store): void {
  const connections = store.list(store.connections, ctx.tenant);
  ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

/** Validates a creation body as @Valid CreateConnectionRequest does, then inserts the row. */
export function createConnection(ctx: Ctx, store: Store, body: Rec, onCreated: OnCreated): Rec {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body, true);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
  const caps = body.capabilities;
  if (!Array.isArray(caps))
    throw new ApiError(400, 'invalid_request', 'capabilities must not be null', 'body.capabilities');
  if (caps.length < 1 || caps.length > 24) {
    throw new ApiError(400, 'invalid_request', 'capabilities size must be between 1 and 24', 'body.capabilities');
  }
  caps.forEach((c, i) => {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw new ApiError(
        400,
        'invalid_request',
        `capabilities[${i}] size must be between 2 and 120`,
        `body.capabilities[${i}]`,
      );
    }
  });
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError(404, 'not_found', `Connector ${connectorId} not found`);
  const offered = connector.capabilities as string[];
  const denied = (caps as string[]).filter((c) => !offered.includes(c));
  if (denied.length > 0) {
    throw new ApiError(
      409,
      'capability_denied',
      `Capability ${denied[0]} is not released for connector ${connectorId}`,
    );
  }
  const review = env === 'production' || env === 'pilot';
  const connection = {
    id: String(store.seq.next()),
    connectorId,
    environment: env,
    scopeLabel,
    state: review ? 'PENDING_REVIEW' : 'ACTIVE',
    capabilities: [...new Set(caps as string[])].map((c) => {
      const cap = capabilityById(c);
      return { capability: c, critical: cap?.critical ?? false, idempotencyRequired: cap?.idempotencyRequired ?? true };
    }),
    nextStep: review ? 'AWAIT_PARTNER_REVIEW' : 'NONE',
    createdAt: new Date().toISOString(),
  };
  store.list(store.connections, ctx.tenant).push(connection);
  onCreated(ctx, connection);
  return connection;
}
