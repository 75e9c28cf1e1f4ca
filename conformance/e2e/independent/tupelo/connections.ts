// Connections and capability checks. States: pending -> active after activationMs.
import { capabilityById, connectorById } from './catalog.ts';
import { ApiError, env, str } from './http.ts';
import type { App } from './state.ts';
import { publish } from './stream.ts';
import { dispatch } from './webhooks.ts';

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}

export function checkCapability(body: Record<string, unknown>) {
  const connectorId = str(body, 'connectorId', 2, 120);
  const capability = str(body, 'capability', 2, 120);
  const environment = env(body, 'environment', 'sandbox');
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'No connector with this id.');
  const cap = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const decision = {
    connectorId,
    capability,
    allowed: offered && cap !== undefined,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? true,
    reason: !cap ? 'unknown_capability' : offered ? 'offered_by_connector' : 'not_offered_by_connector',
  };
  return { decision, environment };
}

export function validateConnection(body: Record<string, unknown>) {
  const connectorId = str(body, 'connectorId', 2, 120);
  const environment = env(body, 'environment');
  const scopeLabel = str(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', 'Field capabilities must be a list of 1 to 24 entries.');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw new ApiError('invalid_request', 'Each capability must be a string of 2 to 120 characters.');
    }
  }
  return { connectorId, environment, scopeLabel, capabilities: [...new Set(caps as string[])] };
}

/** Creates the connection (validated before the key is consulted), publishes and dispatches its events. */
export function createConnection(app: App, tenant: string, input: ReturnType<typeof validateConnection>): Connection {
  const connector = connectorById(input.connectorId);
  if (!connector) throw new ApiError('not_found', 'No connector with this id.');
  const denied = input.capabilities.filter((c) => !connector.capabilities.includes(c));
  if (denied.length) {
    throw new ApiError(
      'capability_denied',
      'A capability is not released for this connector.',
      `not released: ${denied.join(', ')}`,
    );
  }
  const conn: Connection = {
    id: app.kv.nextStamp(),
    connectorId: input.connectorId,
    environment: input.environment,
    scopeLabel: input.scopeLabel,
    state: 'pending',
    capabilities: input.capabilities.map((c) => {
      const cap = capabilityById(c);
      return { capability: c, critical: cap?.critical ?? false, idempotencyRequired: cap?.idempotencyRequired ?? true };
    }),
    nextStep: 'await_activation',
    createdAt: new Date().toISOString(),
  };
  app.kv.set(['connections', tenant, conn.id], conn);
  const summary = { connectionId: conn.id, connectorId: conn.connectorId, environment: conn.environment };
  publish(app, 'connection.created', { ...summary, state: conn.state });
  dispatch(app, tenant, 'connection.created', { connection: conn });
  const t = setTimeout(() => {
    const cur = app.kv.get<Connection>(['connections', tenant, conn.id])?.value;
    if (!cur) return;
    const next = { ...cur, state: 'active', nextStep: 'none' };
    app.kv.set(['connections', tenant, conn.id], next);
    publish(app, 'connection.activated', { ...summary, state: 'active' });
    dispatch(app, tenant, 'connection.activated', { connection: next });
  }, app.opts.activationMs);
  t.unref();
  return conn;
}

export function listConnections(app: App, tenant: string) {
  const connections = app.kv.list<Connection>(['connections', tenant]).map((x) => x.value);
  return { tenant, count: connections.length, connections };
}
