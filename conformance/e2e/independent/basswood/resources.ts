// The catalog and the tenant's connections (Sequel models rendered to the interface's camelCase fields).
// Connection ids are the integer primary key as a string ("17"), as `id.to_s` in a serializer writes it.
import { recordAudit } from './audit.ts';
import { dispatchEvent, later } from './delivery.ts';
import { type Ctx, Halt, invalid, newRequestId, onlyKeys, requireString } from './http.ts';
import { ENVIRONMENTS, nextId, type Rec, rubyTime } from './state.ts';
import { publish } from './stream.ts';

const notFound = (what: string) =>
  new Halt(
    404,
    'not_found',
    'The entry does not exist.',
    `${what} not found`,
    'Compare the identifier and the tenant header.',
  );

export function listProviders(ctx: Ctx): Rec {
  const category = ctx.url.searchParams.get('category');
  const providers = ctx.store.providers.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): Rec {
  const q = ctx.url.searchParams;
  const connectors = ctx.store.connectors.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability'))) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(ctx: Ctx): Rec {
  return { count: ctx.store.capabilities.length, capabilities: ctx.store.capabilities };
}

function environmentOf(body: Rec, required: boolean): string {
  const env = body.environment;
  // `params['environment'] || 'sandbox'`: null reads as left out on the check, where it is optional.
  if ((env === undefined || env === null) && !required) return 'sandbox';
  if (typeof env !== 'string' || !ENVIRONMENTS.includes(env)) {
    throw invalid(`environment must be one of: ${ENVIRONMENTS.join(', ')}`);
  }
  return env;
}

export function checkCapability(ctx: Ctx): Rec {
  const body = ctx.body ?? {};
  onlyKeys(ctx, body, ['connectorId', 'capability', 'environment']);
  const connectorId = requireString(body, 'connectorId', 2, 120);
  const capability = requireString(body, 'capability', 2, 120);
  const environment = environmentOf(body, false);
  const connector = ctx.store.connectors.find((c) => c.id === connectorId);
  if (!connector) throw notFound('connector');
  const cap = ctx.store.capabilities.find((c) => c.id === capability);
  const allowed = Boolean(cap) && connector.capabilities.includes(capability);
  const reason = !cap
    ? 'capability is not in the catalog'
    : allowed
      ? 'capability is offered by the connector'
      : 'capability is not offered by the connector';
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

export function listConnections(ctx: Ctx): Rec {
  const connections = ctx.store.connections.filter((c) => c.tenant === ctx.tenant).map((c) => c.row);
  return { tenant: ctx.tenant, count: connections.length, connections };
}

export function createConnection(ctx: Ctx): Rec {
  const body = ctx.body ?? {};
  onlyKeys(ctx, body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = requireString(body, 'connectorId', 2, 120);
  const environment = environmentOf(body, true);
  const scopeLabel = requireString(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24)
    throw invalid('capabilities must hold 1 to 24 items');
  for (const i of caps.keys()) requireString(caps, String(i), 2, 120);
  const connector = ctx.store.connectors.find((c) => c.id === connectorId);
  if (!connector) throw notFound('connector');
  const entries = (caps as string[]).map((id) => {
    const cap = ctx.store.capabilities.find((c) => c.id === id);
    if (!cap || !connector.capabilities.includes(id)) {
      throw new Halt(
        409,
        'capability_denied',
        'The capability is not released for this connection.',
        `${id} is not offered by ${connectorId}`,
        'Have the capability released.',
      );
    }
    return { capability: id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
  });
  const row = {
    id: String(nextId(ctx.store, 'connections')),
    connectorId,
    environment,
    scopeLabel,
    state: 'provisioning',
    capabilities: entries,
    nextStep: 'Our onboarding team activates the connection within one business day.',
    createdAt: rubyTime(ctx.store),
  };
  ctx.store.connections.push({ tenant: ctx.tenant, row });
  recordAudit(ctx, 'create', 'Connection', row.id, { connectorId, environment, scopeLabel, state: row.state });
  publish(ctx.store, ctx.tenant, 'connection.created', { connection: row });
  dispatchEvent(ctx.store, ctx.tenant, 'connection.created', { connection: row });
  const after = ctx.store.options.activateAfterMs;
  if (after > 0)
    later(ctx.store, after, () => activate({ ...ctx, clientId: 'system', requestId: newRequestId() }, row));
  return row;
}

/** The sandbox's ActivationJob: the state moves on its own, announced like any change. */
function activate(ctx: Ctx, row: Rec): void {
  row.state = 'active';
  row.nextStep = 'Nothing to do: the connection is live.';
  recordAudit(ctx, 'update', 'Connection', row.id, { state: ['provisioning', 'active'] });
  publish(ctx.store, ctx.tenant, 'connection.activated', { connection: row });
  dispatchEvent(ctx.store, ctx.tenant, 'connection.activated', { connection: row });
}
