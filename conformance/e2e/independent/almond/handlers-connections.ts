// Connections of the tenant (list, creation, one by id) and the generation of idempotency keys.
import { capabilityById, connectorById } from './catalog.ts';
import { ConnectionService } from './connections.ts';
import { environmentField } from './handlers-catalog.ts';
import type { App } from './state.ts';
import type { Reply, RoutingContext } from './types.ts';
import { badRequest, conflict, notFound, objectBody, stringField, uuid } from './util.ts';

export function listConnections(ctx: RoutingContext, app: App): Reply {
  const tenant = ctx.tenant as string;
  const connections = app.connections.list(tenant).map(ConnectionService.view);
  return { data: { tenant, count: connections.length, connections } };
}

export function getConnection(ctx: RoutingContext, app: App): Reply {
  const c = app.connections.byId.get(ctx.params.connectionId ?? '');
  if (!c || c.tenantId !== ctx.tenant) throw notFound(`Connection ${ctx.params.connectionId} not found`);
  return { data: ConnectionService.view(c) };
}

function capabilityList(body: Record<string, unknown>): string[] {
  const value = body.capabilities;
  if (value === undefined || value === null)
    throw badRequest(
      'Validation error for body application/json: provided object should contain property capabilities',
    );
  if (!Array.isArray(value))
    throw badRequest('Validation error for body application/json: capabilities should be an array');
  if (value.length < 1 || value.length > 24)
    throw badRequest('Validation error for body application/json: capabilities should have between 1 and 24 items');
  for (const item of value)
    if (typeof item !== 'string' || item.length < 2 || item.length > 120)
      throw badRequest(
        'Validation error for body application/json: capabilities items should be strings of length 2 to 120',
      );
  return [...new Set(value as string[])];
}

export function createConnection(ctx: RoutingContext, app: App): Reply {
  const body = objectBody(ctx.body);
  const connectorId = stringField(body, 'connectorId', 2, 120) as string;
  const environment = environmentField(body, true);
  const scopeLabel = stringField(body, 'scopeLabel', 2, 120) as string;
  const capabilities = capabilityList(body);
  const connector = connectorById(connectorId);
  if (!connector) throw notFound(`Connector ${connectorId} not found`);
  for (const c of capabilities) {
    if (!capabilityById(c) || !connector.capabilities.includes(c))
      throw conflict(
        'capability_denied',
        `Capability ${c} is not released for connector ${connectorId}`,
        'Have the capability released',
      );
  }
  const tenant = ctx.tenant as string;
  const connection = app.connections.create(tenant, connector, environment, scopeLabel, capabilities);
  app.audit.record(
    tenant,
    'connection.created',
    { type: 'connection', id: connection.id },
    ctx.clientId ?? '',
    ctx.requestId,
  );
  return { data: ConnectionService.view(connection) };
}

export function createIdempotencyKey(ctx: RoutingContext, app: App): Reply {
  const body = objectBody(ctx.body);
  const operation = stringField(body, 'operation', 2, 80) as string;
  const idempotencyKey = `${operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 80)}:${uuid()}`;
  const expiresAt = new Date(Date.now() + app.settings.idempotencyKeyTtlSeconds * 1000).toISOString();
  app.issuedKeys.set(idempotencyKey, { operation, expiresAt });
  return { data: { idempotencyKey, operation, expiresAt } };
}
