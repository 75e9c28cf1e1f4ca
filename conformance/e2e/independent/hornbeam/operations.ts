// The interface's own operations over the catalog and the tenant's connections.
import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import type { Connection, State } from './state.ts';
import { later } from './state.ts';
import { publish } from './stream.ts';
import { type Answer, chars, fail, isObject, ok, textError, ulid } from './util.ts';
import { emit } from './webhooks.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

const catalogProvider = (p: (typeof PROVIDERS)[number]) => ({ ...p });

export function listProviders(q: URLSearchParams): Answer {
  const category = q.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category).map(catalogProvider);
  return ok({ count: providers.length, providers });
}

export function listConnectors(q: URLSearchParams): Answer {
  const [cap, prov, cat] = [q.get('capability'), q.get('providerId'), q.get('category')];
  const connectors = CONNECTORS.filter(
    (c) =>
      (cap === null || c.capabilities.includes(cap)) &&
      (prov === null || c.providerId === prov) &&
      (cat === null || c.category === cat),
  ).map((c) => ({ ...c, capabilities: [...c.capabilities] }));
  return ok({ count: connectors.length, connectors });
}

export function listCapabilities(): Answer {
  return ok({ count: CAPABILITIES.length, capabilities: CAPABILITIES.map((c) => ({ ...c })) });
}

/** A decision, never a refusal, for any well-formed pair: unknown ids are "not allowed" with the reason. */
export function checkCapability(body: unknown): Answer {
  if (!isObject(body)) return fail('invalid_request', 'body must be a JSON object');
  const bad = textError(body, 'connectorId', 2, 120) ?? textError(body, 'capability', 2, 120);
  if (bad) return fail('invalid_request', bad);
  const environment = body.environment === undefined ? 'sandbox' : body.environment;
  if (typeof environment !== 'string' || !ENVIRONMENTS.includes(environment))
    return fail('invalid_request', `environment: one of ${ENVIRONMENTS.join(', ')}`);
  const connectorId = body.connectorId as string;
  const capability = body.capability as string;
  const connector = connectorById(connectorId);
  const cap = capabilityById(capability);
  let reason = 'offered by the connector';
  if (!connector) reason = 'connector is not in the catalog';
  else if (!cap) reason = 'capability is not in the catalog';
  else if (!connector.capabilities.includes(capability)) reason = 'connector does not offer this capability';
  const allowed = reason === 'offered by the connector';
  return ok({
    decision: {
      connectorId,
      capability,
      allowed,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment,
  });
}

export const connectionView = (c: Connection) => {
  const { tenant: _tenant, ...rest } = c;
  return { ...rest, capabilities: c.capabilities.map((x) => ({ ...x })) };
};

export function listConnections(state: State, tenant: string): Answer {
  const connections = state.connections.filter((c) => c.tenant === tenant).map(connectionView);
  return ok({ tenant, count: connections.length, connections });
}

export function validateCreation(body: unknown): string | null {
  if (!isObject(body)) return 'body must be a JSON object';
  const bad = textError(body, 'connectorId', 2, 120) ?? textError(body, 'scopeLabel', 2, 120);
  if (bad) return bad;
  if (typeof body.environment !== 'string' || !ENVIRONMENTS.includes(body.environment))
    return `environment: one of ${ENVIRONMENTS.join(', ')}`;
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) return 'capabilities must hold 1 to 24 entries';
  for (const c of caps)
    if (typeof c !== 'string' || chars(c) < 2 || chars(c) > 120)
      return 'each capability must be a string of 2 to 120 characters';
  return null;
}

export function createConnection(
  state: State,
  tenant: string,
  body: Record<string, unknown>,
  actor: string,
  requestId: string,
  key: string,
): Answer {
  const connector = connectorById(body.connectorId as string);
  if (!connector) return fail('not_found', 'connector is not in the catalog', 'GET /connectors lists them');
  const caps = body.capabilities as string[];
  const missing = caps.filter((c) => !connector.capabilities.includes(c) || !capabilityById(c));
  if (missing.length)
    return fail('capability_denied', `not released for this connector: ${missing.join(', ')}`, 'have it released');
  const c: Connection = {
    id: `conn_${ulid()}`,
    connectorId: connector.id,
    environment: body.environment as string,
    scopeLabel: body.scopeLabel as string,
    state: 'queued',
    capabilities: caps.map((id) => {
      const cap = capabilityById(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'await_activation',
    createdAt: new Date().toISOString(),
    tenant,
  };
  state.connections.push(c);
  record(state, tenant, {
    action: 'connection.created',
    resourceType: 'connection',
    resourceId: c.id,
    actor,
    requestId,
    idempotencyKey: key,
  });
  const note = { connectionId: c.id, connectorId: c.connectorId, environment: c.environment };
  const mine = { scopeLabel: c.scopeLabel, tenant };
  publish(state, 'connection.status', { ...note, state: c.state, at: c.createdAt }, tenant, mine);
  emit(state, tenant, 'connection.created', { connection: connectionView(c) });
  const view = connectionView(c);
  later(state, state.opts.activationMs, () => {
    c.state = 'live';
    c.nextStep = 'none';
    record(state, tenant, {
      action: 'connection.live',
      resourceType: 'connection',
      resourceId: c.id,
      actor: 'system',
      requestId,
    });
    publish(state, 'connection.status', { ...note, state: c.state, at: new Date().toISOString() }, tenant, mine);
    emit(state, tenant, 'connection.live', { connection: connectionView(c) });
  });
  return ok(view);
}

export function issueKey(body: unknown): Answer {
  if (!isObject(body)) return fail('invalid_request', 'body must be a JSON object');
  const bad = textError(body, 'operation', 2, 80);
  if (bad) return fail('invalid_request', bad);
  return ok({
    idempotencyKey: `idk_${ulid()}`,
    operation: body.operation,
    expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString(),
  });
}
