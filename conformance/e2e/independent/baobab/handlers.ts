// Catalog, capability checks, connections, idempotency keys and /info.

import { record } from './audit.ts';
import {
  CAPABILITIES,
  CONNECTORS,
  type Connector,
  capability,
  connector,
  PROVIDERS,
  publicConnector,
} from './catalog.ts';
import { ApiError, newId } from './http-util.ts';
import type { Call } from './route-types.ts';
import { type Connection, later, type State } from './state.ts';
import { publish } from './stream.ts';
import { dispatch } from './webhooks.ts';

export function listProviders(call: Call): unknown {
  const category = call.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(call: Call): unknown {
  const q = call.query;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(String(q.get('capability')))) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  ).map(publicConnector);
  return { count: connectors.length, connectors };
}

export function listCapabilities(): unknown {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

function knownConnector(id: string): Connector {
  const c = connector(id);
  if (!c) throw new ApiError('not_found', 'Connector not found', 'body.connectorId: no connector with this id');
  return c;
}

export function checkCapability(call: Call): unknown {
  const b = call.body as { connectorId: string; capability: string; environment?: string };
  const c = knownConnector(b.connectorId);
  const cap = capability(b.capability);
  const offered = c.capabilities.includes(b.capability) && cap !== undefined;
  const decision = {
    connectorId: b.connectorId,
    capability: b.capability,
    allowed: offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: offered ? 'offered_by_connector' : cap ? 'not_offered_by_connector' : 'unknown_capability',
  };
  return { decision, environment: b.environment ?? 'sandbox' };
}

function publicConnection(c: Connection): Record<string, unknown> {
  const { tenant: _tenant, ...rest } = c;
  return rest;
}

export function listConnections(call: Call): unknown {
  const mine = call.state.connections.filter((c) => c.tenant === call.caller.tenant).map(publicConnection);
  return { tenant: call.caller.tenant, count: mine.length, connections: mine };
}

/** Stream and webhook payload: no tenant name, no scope label (the stream is public). */
function eventData(c: Connection): Record<string, unknown> {
  return { connection: { id: c.id, connectorId: c.connectorId, environment: c.environment, state: c.state } };
}

function activate(state: State, c: Connection): void {
  c.state = 'active';
  c.nextStep = 'none';
  c.updatedAt = new Date().toISOString();
  record(state, c.tenant, 'system', 'connection.activated', `connection/${c.id}`);
  publish(state, 'connection.activated', eventData(c));
  dispatch(state, c.tenant, 'connection.activated', eventData(c));
}

export function createConnection(call: Call): unknown {
  const b = call.body as { connectorId: string; environment: string; scopeLabel: string; capabilities: string[] };
  const c = knownConnector(b.connectorId);
  const missing = b.capabilities.filter((id) => !c.capabilities.includes(id) || !capability(id));
  if (missing.length > 0) {
    throw new ApiError(
      'capability_denied',
      'Capability is not released for this connection',
      `body.capabilities: not offered by connector ${c.id}: ${missing.join(', ')}`,
      'have the capability released',
    );
  }
  const now = new Date().toISOString();
  const conn: Connection = {
    id: newId(12),
    tenant: call.caller.tenant,
    connectorId: c.id,
    environment: b.environment,
    scopeLabel: b.scopeLabel,
    state: 'pending_activation',
    capabilities: b.capabilities.map((id) => {
      const cap = capability(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'await_activation',
    createdAt: now,
    updatedAt: now,
  };
  const data = publicConnection(conn);
  call.state.connections.push(conn);
  record(call.state, conn.tenant, call.caller.clientId, 'connection.created', `connection/${conn.id}`);
  publish(call.state, 'connection.created', eventData(conn));
  dispatch(call.state, conn.tenant, 'connection.created', eventData(conn));
  later(call.state, c.activationSeconds * 1000, () => activate(call.state, conn));
  return data;
}

export function issueKey(call: Call): unknown {
  const operation = String(call.body.operation);
  const key = newId(24);
  const issuedAt = Date.now();
  // Valid 24 h after first use; until then the answer promises issue + 24 h (updated on first use).
  const expiresAt = issuedAt + call.state.opts.keyTtlMs;
  call.state.issuedKeys.set(`${call.caller.tenant}\n${key}`, {
    tenant: call.caller.tenant,
    operation,
    issuedAt,
    expiresAt,
  });
  return { idempotencyKey: key, operation, expiresAt: new Date(expiresAt).toISOString() };
}

export function info(call: Call): unknown {
  return {
    tenant: call.caller.tenant,
    clientId: call.caller.clientId,
    environment: 'sandbox',
    tokenExpiresAt: new Date(call.caller.tokenExpiresAt).toISOString(),
  };
}
