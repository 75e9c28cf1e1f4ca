// Handlers of the catalog, capability checks, connections, idempotency keys and /info. Connections start
// `pending_review`; a background review job activates them after ~1 s (`active`); `suspended` is the paused
// state (capability_denied for calls using it).
import { record } from './audit.ts';
import {
  CAPABILITIES,
  CONNECTORS,
  capabilityById,
  connectorById,
  decide,
  PROVIDERS,
  publicCapability,
} from './catalog.ts';
import { type Call, HttpError, readJsonObject } from './http-kit.ts';
import { issueKey, once, readKey } from './idempotency.ts';
import { type Connection, later, publicConnection, type State } from './state.ts';
import { publish } from './stream.ts';
import { ulid } from './ulid.ts';
import { environment, onlyFields, text, textList } from './validate.ts';
import { emit } from './webhooks.ts';

function query(call: Call, allowed: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of call.url.searchParams) {
    if (!allowed.includes(k))
      throw new HttpError('invalid_request', `unknown query parameter ${k}`, {
        hint: `allowed: ${allowed.join(', ') || 'none'}`,
      });
    if (k in out) throw new HttpError('invalid_request', `query parameter ${k} given twice`);
    out[k] = v;
  }
  return out;
}

export function listProviders(call: Call): unknown {
  const q = query(call, ['category']);
  const providers = PROVIDERS.filter((p) => q.category === undefined || p.category === q.category);
  return { count: providers.length, providers };
}

export function listConnectors(call: Call): unknown {
  const q = query(call, ['capability', 'providerId', 'category']);
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.capability === undefined || c.capabilities.includes(q.capability)) &&
      (q.providerId === undefined || c.providerId === q.providerId) &&
      (q.category === undefined || c.category === q.category),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(call: Call): unknown {
  query(call, []);
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES.map(publicCapability) };
}

export async function checkCapability(state: State, call: Call): Promise<unknown> {
  query(call, []);
  const body = await readJsonObject(call);
  onlyFields(body, ['connectorId', 'capability', 'environment']);
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const capability = text(body, 'capability', 2, 120) ?? '';
  const env = environment(body, 'environment', false) ?? 'sandbox';
  const connector = connectorById(connectorId);
  if (connector === undefined && state.opts.unknownConnectorDecided) {
    const cap = capabilityById(capability);
    const flags = { critical: cap?.critical ?? false, idempotencyRequired: cap?.idempotencyRequired ?? false };
    const decision = {
      connectorId,
      capability,
      allowed: false,
      ...flags,
      reason: 'connector_unknown: not in the catalog',
    };
    return { decision, environment: env };
  }
  if (connector === undefined)
    throw new HttpError('not_found', 'connector not found', { hint: 'see GET /api/public/v1/connectors' });
  return { decision: decide(connector, capability, env, state.opts.productionCriticalDenied), environment: env };
}

export function listConnections(state: State, call: Call): unknown {
  query(call, []);
  const connections = state.connections.filter((c) => c.tenant === call.tenant).map(publicConnection);
  return { tenant: call.tenant, count: connections.length, connections };
}

function activate(state: State, c: Connection): void {
  c.state = 'active';
  c.nextStep = 'ready: the connection may be used';
  c.stateChangedAt = new Date().toISOString();
  publish(state, 'connection.activated', { connectionId: c.id, state: c.state, environment: c.environment });
  record(state, c.tenant, {
    action: 'connection.activated',
    resourceType: 'connection',
    resourceId: c.id,
    after: { state: c.state },
  });
  emit(state, c.tenant, 'connection.activated', { connection: publicConnection(c) });
}

export async function createConnection(state: State, call: Call): Promise<void> {
  query(call, []);
  readKey(call, true);
  const body = await readJsonObject(call);
  once(state, call, body, () => {
    onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
    const connectorId = text(body, 'connectorId', 2, 120) ?? '';
    const env = environment(body, 'environment', true) ?? '';
    const scopeLabel = text(body, 'scopeLabel', 2, 120) ?? '';
    const capabilities = textList(body, 'capabilities', [1, 24], [2, 120]);
    const connector = connectorById(connectorId);
    if (connector === undefined)
      throw new HttpError('not_found', 'connector not found', { hint: 'see GET /api/public/v1/connectors' });
    const decisions = capabilities.map((cap) => decide(connector, cap, env, state.opts.productionCriticalDenied));
    const denied = decisions.find((d) => !d.allowed);
    if (denied !== undefined) {
      throw new HttpError('capability_denied', 'a capability is not released for this connection', {
        detail: denied.reason,
        hint: 'have the capability released, or check it with POST /api/public/v1/capabilities',
      });
    }
    const now = new Date().toISOString();
    const c: Connection = {
      id: ulid(),
      tenant: call.tenant ?? '',
      connectorId,
      environment: env,
      scopeLabel,
      state: 'pending_review',
      capabilities: decisions.map((d) => ({
        capability: d.capability,
        critical: d.critical,
        idempotencyRequired: d.idempotencyRequired,
      })),
      nextStep: 'await_review: an automated review activates the connection shortly',
      createdAt: now,
      stateChangedAt: now,
    };
    state.connections.push(c);
    const view = publicConnection(c);
    publish(state, 'connection.created', { connectionId: c.id, state: c.state, environment: c.environment });
    record(
      state,
      c.tenant,
      { action: 'connection.created', resourceType: 'connection', resourceId: c.id, after: { ...view } },
      call,
    );
    emit(state, c.tenant, 'connection.created', { connection: view });
    later(state, state.opts.activationDelayMs, () => activate(state, c));
    return view;
  });
}

export async function createKey(state: State, call: Call): Promise<void> {
  query(call, []);
  readKey(call, false);
  const body = await readJsonObject(call);
  once(state, call, body, () => {
    onlyFields(body, ['operation']);
    const operation = text(body, 'operation', 2, 80) ?? '';
    return issueKey(state, call, operation);
  });
}

export function info(state: State, call: Call): unknown {
  query(call, []);
  const token = call.token === undefined ? undefined : state.tokens.get(call.token);
  return {
    tenant: call.tenant,
    clientId: call.clientId,
    environment: 'sandbox',
    version: call.version,
    purpose: 'conformance and integration testing (invented data only)',
    owner: 'aspen platform team',
    tokenExpiresAt: new Date(token?.expiresAt ?? Date.now()).toISOString(),
  };
}
