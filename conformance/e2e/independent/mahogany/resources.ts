// Catalog reads, capability checks, connections, idempotency keys and /info.
import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import {
  ApiError,
  type Ctx,
  canonical,
  invalid,
  jsonObject,
  newId,
  notFound,
  nowIso,
  type Reply,
  sha256,
  str,
} from './http.ts';
import { CURRENT_VERSION, DEPLOYMENT_ENVIRONMENT, ENVIRONMENTS, SERVICE, VERSIONS } from './options.ts';
import type { Connection } from './state.ts';

const q = (ctx: Ctx, name: string) => ctx.url.searchParams.get(name) ?? undefined;

export function listProviders(ctx: Ctx): Reply {
  const category = q(ctx, 'category');
  const providers = PROVIDERS.filter((p) => category === undefined || p.category === category);
  return { data: { count: providers.length, providers } };
}

export function listConnectors(ctx: Ctx): Reply {
  const capability = q(ctx, 'capability');
  const providerId = q(ctx, 'providerId');
  const category = q(ctx, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === undefined || c.capabilities.includes(capability)) &&
      (providerId === undefined || c.providerId === providerId) &&
      (category === undefined || c.category === category),
  );
  return { data: { count: connectors.length, connectors } };
}

export function listCapabilities(): Reply {
  return { data: { count: CAPABILITIES.length, capabilities: CAPABILITIES } };
}

function environment(o: Record<string, unknown>, required: boolean) {
  const v = o.environment;
  if (v === undefined && !required) return 'sandbox';
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw invalid('Field environment is invalid', `environment: one of ${ENVIRONMENTS.join(', ')}`);
  }
  return v;
}

/** POST /capabilities: may the connector use the capability? */
export function checkCapability(ctx: Ctx): Reply {
  const body = jsonObject(ctx);
  const connectorId = str(body, 'connectorId', 2, 120) as string;
  const capability = str(body, 'capability', 2, 120) as string;
  const env = environment(body, false);
  const connector = connectorById(connectorId);
  if (!connector) throw notFound(`Connector ${connectorId}`);
  const cap = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !cap
    ? 'CAPABILITY_UNKNOWN: the capability is not in the catalog'
    : offered
      ? 'CAPABILITY_OFFERED: the connector offers this capability'
      : 'CAPABILITY_NOT_OFFERED: the connector does not offer this capability';
  return {
    data: {
      decision: {
        connectorId,
        capability,
        allowed: offered && cap !== undefined,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
        reason,
      },
      environment: env,
    },
  };
}

const publicConnection = (c: Connection) => {
  const { etag: _e, ...rest } = c;
  return rest;
};

export function listConnections(ctx: Ctx): Reply {
  const now = Date.now();
  const connections = [...ctx.state.connections.values()]
    .filter((e) => e.tenant === ctx.tenant && e.visibleAt <= now)
    .map((e) => publicConnection(e.connection));
  return { data: { tenant: ctx.tenant, count: connections.length, connections } };
}

export function getConnection(ctx: Ctx): Reply {
  const e = ctx.state.connections.get(ctx.params.connectionId ?? '');
  if (!e || e.tenant !== ctx.tenant || e.visibleAt > Date.now()) throw notFound('Connection');
  ctx.headers.etag = `W/"${e.connection.etag}"`;
  return { data: publicConnection(e.connection) };
}

/** POST /connections (Idempotency-Key checked by the router). */
export function createConnection(ctx: Ctx): Reply {
  const body = jsonObject(ctx);
  const connectorId = str(body, 'connectorId', 2, 120) as string;
  const env = environment(body, true);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) as string;
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw invalid('Field capabilities is invalid', 'capabilities: array of 1 to 24 strings');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw invalid('Field capabilities is invalid', 'capabilities: each item a string of length 2 to 120');
    }
  }
  const connector = connectorById(connectorId);
  if (!connector) throw notFound(`Connector ${connectorId}`);
  const denied = (caps as string[]).filter((c) => !connector.capabilities.includes(c));
  if (denied.length > 0) {
    throw new ApiError(
      'capability_denied',
      'Capability is not released for this connection',
      `Not offered by ${connectorId}: ${denied.join(', ')}`,
      'Have the capability released or choose another connector.',
    );
  }
  const live = env === 'pilot' || env === 'production';
  const at = nowIso();
  const connection: Connection = {
    id: newId(),
    connectorId,
    environment: env,
    scopeLabel,
    state: live ? 'PENDING_APPROVAL' : 'ACTIVE',
    capabilities: [...new Set(caps as string[])].map((c) => {
      const cap = capabilityById(c);
      return {
        capability: c,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: live
      ? 'AWAIT_APPROVAL: the network operator reviews the connection before go-live'
      : 'SEND_TEST_CALL: call the connector from your sandbox backend with invented test data',
    createdAt: at,
    modifiedAt: at,
    etag: '',
  };
  connection.etag = sha256(canonical(connection)).slice(0, 32);
  const tenant = ctx.tenant as string;
  ctx.state.connections.set(connection.id, {
    tenant,
    visibleAt: Date.now() + ctx.state.options.replicaLagMs,
    connection,
  });
  record(ctx, 'connection.create', 'Connection', connection.id);
  const out = publicConnection(connection);
  ctx.state.publish('connection.created', {
    connectionId: connection.id,
    connectorId,
    environment: env,
    state: connection.state,
  });
  ctx.state.onEvent(tenant, 'connection.created', { connection: out });
  return { data: out };
}

/** POST /idempotency-keys: a fresh key for an operation, valid for the configured period. */
export function createIdempotencyKey(ctx: Ctx): Reply {
  const body = jsonObject(ctx);
  const operation = str(body, 'operation', 2, 80) as string;
  const idempotencyKey = `mhg-${newId()}`;
  const expiresAt = new Date(Date.now() + ctx.state.options.idempotencyTtlMs).toISOString();
  return { data: { idempotencyKey, operation, expiresAt } };
}

/** GET /info: who is calling, for which tenant, against which environment and versions. */
export function info(ctx: Ctx): Reply {
  return {
    data: {
      service: SERVICE,
      environment: DEPLOYMENT_ENVIRONMENT,
      tenant: ctx.tenant,
      clientId: ctx.clientId,
      version: ctx.version,
      currentVersion: CURRENT_VERSION,
      supportedVersions: VERSIONS,
      serverTime: nowIso(),
    },
  };
}
