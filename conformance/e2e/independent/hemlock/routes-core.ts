// Handlers of the catalog, capability checks, connections and idempotency keys. Each returns the `data` of
// the success envelope or throws an ApiError; authentication, rate limiting and idempotency happen before.
import { appendAudit } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { publish } from './events.ts';
import { ApiError, type CallContext, isoUsec, newId, notFound } from './http-kit.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { type Connection, later, type State } from './state.ts';
import { environment, onlyFields, text, textList } from './validate.ts';

export interface Call {
  state: State;
  ctx: CallContext;
  clientId: string;
  tenant: string;
  url: URL;
  params: Record<string, string>;
  body: Record<string, unknown>;
}

const NEXT_STEP: Record<Connection['state'], string> = {
  draft: 'wait_for_activation',
  live: 'none',
  suspended: 'contact_support',
};

export function view(c: Connection): Record<string, unknown> {
  const { tenant: _tenant, ...rest } = c;
  return structuredClone(rest);
}

export function listProviders(c: Call): unknown {
  const category = c.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(c: Call): unknown {
  const q = c.url.searchParams;
  const capability = q.get('capability');
  const providerId = q.get('providerId');
  const category = q.get('category');
  const connectors = CONNECTORS.filter(
    (x) =>
      (capability === null || x.capabilities.includes(capability)) &&
      (providerId === null || x.providerId === providerId) &&
      (category === null || x.category === category),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): unknown {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

export function checkCapability(c: Call): unknown {
  const connectorId = text(c.body, 'connectorId', 2, 120);
  const capability = text(c.body, 'capability', 2, 120);
  const env = environment(c.body, 'environment', 'sandbox');
  const connector = connectorById(connectorId);
  if (!connector) throw notFound('No connector with this connectorId.');
  const cap = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = offered
    ? `${connector.name} offers ${capability} in ${env}.`
    : cap
      ? `${connector.name} does not offer ${capability}.`
      : 'The capability is not in the catalog.';
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

export function listConnections(c: Call): unknown {
  const connections = c.state.connections.filter((x) => x.tenant === c.tenant).map(view);
  return { tenant: c.tenant, count: connections.length, connections };
}

export function getConnection(c: Call): unknown {
  const found = c.state.connections.find((x) => x.id === c.params.id && x.tenant === c.tenant);
  if (!found) throw notFound('No connection with this id for this tenant.');
  return view(found);
}

function transition(state: State, conn: Connection, to: Connection['state']): void {
  conn.state = to;
  conn.nextStep = NEXT_STEP[to];
  appendAudit(state, conn.tenant, {
    action: `connection.${to}`,
    resourceType: 'connection',
    resourceId: conn.id,
    actor: 'system',
  });
  const publicData = { connectionId: conn.id, connectorId: conn.connectorId, environment: conn.environment, state: to };
  publish(state, conn.tenant, `connection.${to}`, publicData, { connection: view(conn) });
}

export function createConnection(c: Call): unknown {
  onlyFields(c.body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = text(c.body, 'connectorId', 2, 120);
  const env = environment(c.body, 'environment');
  const scopeLabel = text(c.body, 'scopeLabel', 2, 120);
  const capabilities = textList(c.body, 'capabilities', 1, 24, 2, 120);
  const connector = connectorById(connectorId);
  if (!connector) throw notFound('No connector with this connectorId.');
  const denied = capabilities.filter((x) => !connector.capabilities.includes(x));
  if (denied.length > 0) {
    throw new ApiError({
      status: 409,
      code: 'capability_denied',
      message: 'The capability is not released for this connection.',
      detail: `${connector.name} does not offer ${denied.length === 1 ? 'one requested capability' : `${denied.length} requested capabilities`}.`,
      hint: `Offered: ${connector.capabilities.join(', ')}.`,
    });
  }
  const conn: Connection = {
    id: newId('cn'),
    tenant: c.tenant,
    connectorId,
    environment: env,
    scopeLabel,
    state: 'draft',
    capabilities: capabilities.map((id) => {
      const cap = capabilityById(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: NEXT_STEP.draft,
    createdAt: isoUsec(),
  };
  const { state } = c;
  state.connections.push(conn);
  appendAudit(state, c.tenant, {
    action: 'connection.create',
    resourceType: 'connection',
    resourceId: conn.id,
    actor: c.clientId,
    idempotencyKey: c.ctx.idempotencyKey,
  });
  const publicData = { connectionId: conn.id, connectorId, environment: env, state: conn.state };
  publish(state, c.tenant, 'connection.created', publicData, { connection: view(conn) });
  later(state, state.options.activationMs, () => {
    transition(state, conn, 'live');
    if (state.options.suspendAfterMs > 0)
      later(state, state.options.suspendAfterMs, () => transition(state, conn, 'suspended'));
  });
  return view(conn);
}

export function issueKey(c: Call): unknown {
  const operation = text(c.body, 'operation', 2, 80);
  return { idempotencyKey: newId('ik', 24), operation, expiresAt: isoUsec(Date.now() + KEY_TTL_MS) };
}
