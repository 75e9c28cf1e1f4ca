// Catalog reads, the capability check and the tenant's connections (CREATING, then ACTIVE).
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import {
  CAPABILITIES,
  CONNECTORS,
  ENVIRONMENTS,
  type Environment,
  PROVIDERS,
  publicCapability,
  publicConnector,
  publicProvider,
} from './catalog.ts';
import { ApiError, type Call, newId, str } from './http.ts';
import type { Connection, State } from './state.ts';
import { dispatch } from './webhooks.ts';

export function listProviders(call: Call): unknown {
  const category = call.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => !category || p.category === category).map(publicProvider);
  return { count: providers.length, providers };
}

export function listConnectors(call: Call): unknown {
  const q = call.url.searchParams;
  const capability = q.get('capability');
  const providerId = q.get('providerId');
  const category = q.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (!capability || c.capabilities.includes(capability)) &&
      (!providerId || c.providerId === providerId) &&
      (!category || c.category === category),
  ).map(publicConnector);
  return { count: connectors.length, connectors };
}

export function listCapabilities(): unknown {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES.map(publicCapability) };
}

function environment(body: Record<string, unknown>, fallback?: Environment): Environment {
  const v = body.environment;
  if (v === undefined && fallback) return fallback;
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v))
    throw new ApiError('invalid_request', `environment must be one of ${ENVIRONMENTS.join(', ')}.`, {
      field: 'environment',
    });
  return v as Environment;
}

function connector(id: string) {
  const c = CONNECTORS.find((x) => x.id === id);
  if (!c) throw new ApiError('not_found', 'No connector with this identifier.', { field: 'connectorId' });
  return c;
}

/** POST /capabilities: a decision; a capability the connector does not offer is not allowed. */
export function checkCapability(body: Record<string, unknown>): unknown {
  const connectorId = str(body, 'connectorId', 2, 120);
  const capability = str(body, 'capability', 2, 120);
  const env = environment(body, 'sandbox');
  const c = connector(connectorId);
  const cap = CAPABILITIES.find((x) => x.id === capability);
  const offered = cap !== undefined && c.capabilities.includes(capability);
  const reason = !cap
    ? `Capability ${capability} is not in the catalog.`
    : offered
      ? `Connector ${connectorId} offers ${capability} in ${env}.`
      : `Connector ${connectorId} does not offer ${capability}.`;
  return {
    decision: {
      connectorId,
      capability,
      allowed: offered,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  };
}

function view(c: Connection): Record<string, unknown> {
  const { tenant: _t, visibleAt: _v, ...rest } = c;
  return rest;
}

/** Validates a creation body before the idempotency lookup (invalid bodies are never stored). */
export function validateCreation(body: Record<string, unknown>) {
  const connectorId = str(body, 'connectorId', 2, 120);
  const env = environment(body);
  const scopeLabel = str(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24)
    throw new ApiError('invalid_request', 'capabilities must be an array of 1 to 24 strings.', {
      field: 'capabilities',
    });
  for (const x of caps)
    if (typeof x !== 'string' || x.length < 2 || x.length > 120)
      throw new ApiError('invalid_request', 'Each capability must be a string of 2 to 120 characters.', {
        field: 'capabilities',
      });
  return { connectorId, environment: env, scopeLabel, capabilities: [...new Set(caps as string[])] };
}

export function createConnection(state: State, call: Call, input: ReturnType<typeof validateCreation>): unknown {
  const c = connector(input.connectorId);
  const denied = input.capabilities.filter((x) => !c.capabilities.includes(x));
  if (denied.length > 0)
    throw new ApiError('capability_denied', `Capability not released for connector ${c.id}: ${denied.join(', ')}.`, {
      hint: 'Have the capability released, or choose capabilities the connector lists.',
    });
  const id = newId('conn', 20);
  const now = new Date();
  const conn: Connection = {
    id,
    name: `tenants/${call.tenant}/connections/${id}`,
    tenant: call.tenant ?? '',
    connectorId: c.id,
    environment: input.environment,
    scopeLabel: input.scopeLabel,
    state: 'CREATING',
    capabilities: input.capabilities.map((x) => {
      const cap = CAPABILITIES.find((y) => y.id === x);
      return {
        capability: x,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'Wait until state is ACTIVE (watch the status stream or GET the connection).',
    createdAt: now.toISOString(),
    updateTime: now.toISOString(),
    etag: randomBytes(8).toString('hex'),
    visibleAt: now.getTime() + state.options.listLagMs,
  };
  state.connections.push(conn);
  record(state, call, 'connection.create', conn.name);
  const answer = view(conn);
  state.publish('connection.created', {
    connectionId: id,
    connection: { id, name: conn.name, connectorId: c.id, environment: conn.environment, state: conn.state },
  });
  dispatch(state, conn.tenant, 'connection.created', { connection: answer });
  state.later(state.options.activationDelayMs, () => {
    conn.state = 'ACTIVE';
    conn.nextStep = 'Connection is active; send calls for its capabilities.';
    conn.updateTime = new Date().toISOString();
    conn.etag = randomBytes(8).toString('hex');
    state.publish('connection.state_changed', {
      connectionId: id,
      connection: { id, name: conn.name, connectorId: c.id, environment: conn.environment, state: 'ACTIVE' },
      previousState: 'CREATING',
    });
    dispatch(state, conn.tenant, 'connection.activated', { connection: view(conn) });
  });
  return answer;
}

export function listConnections(state: State, call: Call): unknown {
  const now = Date.now();
  const connections = state.connections.filter((c) => c.tenant === call.tenant && c.visibleAt <= now).map(view);
  return { tenant: call.tenant, count: connections.length, connections };
}

export function getConnection(state: State, call: Call, id: string): unknown {
  const c = state.connections.find((x) => x.id === id && x.tenant === call.tenant);
  if (!c) throw new ApiError('not_found', 'No connection with this identifier for this tenant.');
  return view(c);
}
