// Connections (commands appended to the tenant's event stream, the list read from the async projection)
// and idempotency key generation.
import { randomBytes } from 'node:crypto';
import { capabilityById, connectorById, isEnvironment } from './catalog.ts';
import type { Connection } from './store.ts';
import type { Input, Output } from './types.ts';
import { ApiError, roundTrip, shortGuid, str } from './util.ts';

export function listConnections(input: Input): Output {
  const { tenant } = input.access;
  const connections = [...(input.app.store.connectionsProjection.get(tenant) ?? [])].sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : 1,
  );
  return { data: { tenant, count: connections.length, connections } };
}

export function getConnection(input: Input): Output {
  const id = input.params.connectionId ?? '';
  const c = input.app.store.aggregate(input.access.tenant, `connection-${id}`);
  if (!c) throw new ApiError('not_found', 'Connection not found', `connectionId: ${id}`);
  return { data: c };
}

export function createConnection(input: Input): Output {
  const { body, app, access } = input;
  const connectorId = str(body, 'connectorId', 2, 120) as string;
  if (!isEnvironment(body.environment)) {
    throw new ApiError(
      'invalid_request',
      body.environment === undefined ? 'Field environment is required' : 'Field environment is not a known environment',
      'environment: one of development, sandbox, pilot, production',
    );
  }
  const environment = body.environment;
  const scopeLabel = str(body, 'scopeLabel', 2, 120) as string;
  const caps = body.capabilities;
  if (!Array.isArray(caps)) {
    throw new ApiError(
      'invalid_request',
      'Field capabilities must be an array of strings',
      'capabilities: 1 to 24 items',
    );
  }
  if (caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', 'Field capabilities must hold 1 to 24 items', 'capabilities: 1 to 24 items');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw new ApiError('invalid_request', 'Each capability must be a string of length 2 to 120', 'capabilities[]');
    }
  }
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'Connector not found', `connectorId: ${connectorId}`);
  const unique = [...new Set(caps as string[])];
  const capabilities = unique.map((id) => {
    const cap = capabilityById(id);
    if (!cap) throw new ApiError('invalid_request', 'Unknown capability', `capabilities: ${id} is not in the catalog`);
    if (!connector.capabilities.includes(id)) {
      throw new ApiError(
        'capability_denied',
        'The capability is not released for this connection',
        `${id} is not offered by ${connectorId}`,
        'Have the capability released',
      );
    }
    return { capability: cap.id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
  });
  const id = shortGuid();
  const streamId = `connection-${id}`;
  const event = app.store.append(
    access.tenant,
    streamId,
    'ConnectionRequested',
    { id, connectorId, environment, scopeLabel, capabilities, state: 'Requested', nextStep: 'AwaitProvisioning' },
    access.clientId,
  );
  const connection: Connection = {
    id,
    connectorId,
    environment,
    scopeLabel,
    state: 'Requested',
    capabilities,
    nextStep: 'AwaitProvisioning',
    createdAt: event.At,
    UpdatedAt: event.At,
    Version: 1,
  };
  // Hangfire-style continuation jobs drive the lifecycle.
  const t = app.options.transitionMs;
  app.store.later(t, () => {
    app.store.append(
      access.tenant,
      streamId,
      'ConnectionProvisioning',
      { state: 'Provisioning', nextStep: 'AwaitActivation' },
      'system',
    );
    app.store.later(t, () => {
      app.store.append(access.tenant, streamId, 'ConnectionWentLive', { state: 'Live', nextStep: 'None' }, 'system');
    });
  });
  return { data: connection };
}

export function createIdempotencyKey(input: Input): Output {
  const operation = str(input.body, 'operation', 2, 80) as string;
  const idempotencyKey = `ik:${operation.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40)}:${randomBytes(12).toString('hex')}`;
  return {
    data: { idempotencyKey, operation, expiresAt: roundTrip(Date.now() + 24 * 3600 * 1000) },
  };
}
