// The catalog and the tenant's connections: list filters, the capability decision and connection creation.
// Records are written as their json_serializable `toJson()` would: every field, nulls included.

import { CAPABILITIES, CONNECTORS, PROVIDERS } from './catalog.ts';
import { ApiError, badRequest, type Ctx, str } from './http.ts';
import { type Connection, dartNow, ENVIRONMENTS, type Rec, type Store, uuid } from './state.ts';

const q = (ctx: Ctx, name: string) => ctx.url.searchParams.get(name) ?? undefined;

export function listProviders(ctx: Ctx): Rec {
  const category = q(ctx, 'category');
  const providers = PROVIDERS.filter((p) => !category || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): Rec {
  const [capability, providerId, category] = [q(ctx, 'capability'), q(ctx, 'providerId'), q(ctx, 'category')];
  const connectors = CONNECTORS.filter(
    (c) =>
      (!capability || c.capabilities.includes(capability)) &&
      (!providerId || c.providerId === providerId) &&
      (!category || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export const listCapabilities = (): Rec => ({ count: CAPABILITIES.length, capabilities: CAPABILITIES });

function environmentOf(body: Rec, required: boolean): string {
  const env = body.environment;
  if (env === undefined && !required) return 'sandbox';
  if (typeof env !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(env)) {
    throw badRequest(`Field environment must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return env;
}

/** POST /capabilities: an unknown connector is a 404; an unknown or unoffered capability is "not allowed". */
export function checkCapability(body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const capability = str(body, 'capability', 2, 120) ?? '';
  const environment = environmentOf(body, false);
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError(404, 'not_found', `Connector ${connectorId} not found`);
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const allowed = Boolean(cap && connector.capabilities.includes(capability));
  const reason = !cap ? 'unknownCapability' : allowed ? 'offeredByConnector' : 'notOfferedByConnector';
  return {
    decision: {
      connectorId,
      capability,
      allowed,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment,
  };
}

export function connectionView(c: Connection): Rec {
  const { tenant: _tenant, ...rest } = c;
  return rest;
}

export function listConnections(store: Store, ctx: Ctx): Rec {
  const connections = store.connections.filter((c) => c.tenant === ctx.tenant).map(connectionView);
  return { tenant: ctx.tenant, count: connections.length, connections };
}

/** Validates the whole body before anything is written (a 400 names the first field at fault). */
export function validateCreation(
  body: Rec,
): Omit<Connection, 'id' | 'tenant' | 'state' | 'nextStep' | 'createdAt' | 'updatedAt'> {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const environment = environmentOf(body, true);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw badRequest('Field capabilities must be an array of 1 to 24 strings');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw badRequest('Each capability must be a string of 2 to 120 characters');
    }
  }
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError(404, 'not_found', `Connector ${connectorId} not found`);
  const capabilities = (caps as string[]).map((id) => {
    const cap = CAPABILITIES.find((c) => c.id === id);
    if (!cap || !connector.capabilities.includes(id)) {
      throw new ApiError(409, 'capability_denied', `Capability ${id} is not released for connector ${connectorId}`);
    }
    return { capability: id, critical: Boolean(cap.critical), idempotencyRequired: Boolean(cap.idempotencyRequired) };
  });
  return { connectorId, environment, scopeLabel, capabilities };
}

export function createConnection(store: Store, ctx: Ctx, fields: ReturnType<typeof validateCreation>): Connection {
  const c: Connection = {
    id: uuid(),
    tenant: ctx.tenant ?? '',
    ...fields,
    state: 'pendingActivation',
    nextStep: 'awaitProviderActivation',
    createdAt: dartNow(),
    updatedAt: null,
  };
  store.connections.push(c);
  return c;
}
