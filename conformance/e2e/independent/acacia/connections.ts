// Flows of the catalog, capability checks, connections and idempotency keys (the "system API" calls).
import { randomBytes, randomUUID } from 'node:crypto';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { connectionCreated } from './events.ts';
import { ApiError, type Ctx } from './http.ts';
import type { Connection, State } from './state.ts';
import { stamp } from './time.ts';
import { environment, onlyFields, queryText, text, textList } from './validate.ts';

export function listProviders(ctx: Ctx): unknown {
  const category = queryText(ctx.query, 'category');
  const providers = PROVIDERS.filter((p) => category === undefined || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): unknown {
  const capability = queryText(ctx.query, 'capability');
  const providerId = queryText(ctx.query, 'providerId');
  const category = queryText(ctx.query, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === undefined || c.capabilities.includes(capability)) &&
      (providerId === undefined || c.providerId === providerId) &&
      (category === undefined || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): unknown {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

/** ACACIA_UNKNOWN_CAPABILITY_404 (hand-started only): a capability not in the catalog is a wrong identifier. */
function unknownCapability(field: string): ApiError {
  return new ApiError(
    'not_found',
    'The capability does not exist.',
    `${field}: not in the catalog`,
    'Compare the identifier with GET /capabilities.',
  );
}

export function checkCapability(body: Record<string, unknown>): unknown {
  onlyFields(body, ['connectorId', 'capability', 'environment']);
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const capability = text(body, 'capability', 2, 120) ?? '';
  const env = environment(body, 'environment', false) ?? 'sandbox';
  const connector = connectorById(connectorId);
  if (!connector) {
    throw new ApiError(
      'not_found',
      'The connector does not exist.',
      'connectorId: no such connector',
      'Compare the identifier with GET /connectors.',
    );
  }
  const cap = capabilityById(capability);
  if (!cap && process.env.ACACIA_UNKNOWN_CAPABILITY_404 === '1') throw unknownCapability('capability');
  const offered = connector.capabilities.includes(capability);
  const reason = !cap
    ? 'capability_unknown: the capability is not in the catalog'
    : offered
      ? `offered: the connector offers this capability in ${env}`
      : 'not_offered: the connector does not offer this capability';
  return {
    decision: {
      connectorId,
      capability,
      allowed: Boolean(cap) && offered,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  };
}

export function listConnections(state: State, tenant: string): unknown {
  const connections = state.connections.get(tenant) ?? [];
  return { tenant, count: connections.length, connections };
}

/** Validated before the Object Store is asked, so a refusal never touches the key. */
export function validateConnection(body: Record<string, unknown>): void {
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  text(body, 'connectorId', 2, 120);
  environment(body, 'environment', true);
  text(body, 'scopeLabel', 2, 120);
  textList(body, 'capabilities', 1, 24, 2, 120);
}

export function createConnection(state: State, ctx: Ctx, tenant: string, body: Record<string, unknown>): Connection {
  const connectorId = body.connectorId as string;
  const requested = body.capabilities as string[];
  const connector = connectorById(connectorId);
  if (!connector) {
    throw new ApiError(
      'not_found',
      'The connector does not exist.',
      'connectorId: no such connector',
      'Compare the identifier with GET /connectors.',
    );
  }
  const unknown = requested.findIndex((c) => !capabilityById(c));
  if (unknown >= 0 && process.env.ACACIA_UNKNOWN_CAPABILITY_404 === '1')
    throw unknownCapability(`capabilities[${unknown}]`);
  const denied = requested.findIndex((c) => !connector.capabilities.includes(c) || !capabilityById(c));
  if (denied >= 0) {
    throw new ApiError(
      'capability_denied',
      'The capability is not released for this connection.',
      `capabilities[${denied}]: not offered by the connector`,
      'Have the capability released.',
    );
  }
  const now = stamp();
  const c: Connection = {
    id: randomUUID(),
    connectorId,
    environment: body.environment as string,
    scopeLabel: body.scopeLabel as string,
    state: 'requested',
    capabilities: requested.map((id) => {
      const cap = capabilityById(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'await-provisioning',
    createdAt: now,
    updatedAt: now,
  };
  let list = state.connections.get(tenant);
  if (!list) {
    list = [];
    state.connections.set(tenant, list);
  }
  list.push(c);
  connectionCreated(state, tenant, c, ctx.clientId ?? 'unknown', ctx.correlationId);
  return structuredClone(c);
}

export function issueKey(state: State, body: Record<string, unknown>): unknown {
  onlyFields(body, ['operation']);
  const operation = text(body, 'operation', 2, 80) ?? '';
  const idempotencyKey = `acacia:${randomBytes(16).toString('hex')}`;
  const expiresAt = stamp(Date.now() + state.store.ttlMs);
  state.store.issued.set(idempotencyKey, { operation, expiresAt: Date.parse(expiresAt) });
  return { idempotencyKey, operation, expiresAt };
}
