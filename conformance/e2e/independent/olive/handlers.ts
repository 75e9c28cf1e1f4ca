// Handlers of the catalog, capability checks, connections, idempotency keys and /info.
import { appendAudit } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { issueKey } from './idempotency.ts';
import type { Ctx } from './mux.ts';
import { type ConnectionRow, rowId, type State, schedule } from './state.ts';
import type { Hub } from './stream.ts';
import { ApiError, nextId, notFound, now, randomToken, rfc3339Nano } from './util.ts';
import { environment, object, text, textList } from './validate.ts';

export function listProviders(ctx: Ctx): Record<string, unknown> {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): Record<string, unknown> {
  const q = (k: string) => ctx.query.get(k);
  const connectors = CONNECTORS.filter(
    (c) =>
      (q('category') === null || c.category === q('category')) &&
      (q('providerId') === null || c.providerId === q('providerId')) &&
      (q('capability') === null || c.capabilities.includes(q('capability') ?? '')),
  );
  return { count: connectors.length, connectors };
}

export const listCapabilities = (): Record<string, unknown> => ({
  count: CAPABILITIES.length,
  capabilities: CAPABILITIES,
});

export function checkCapability(state: State, ctx: Ctx): Record<string, unknown> {
  const body = object(ctx.body, ['connectorId', 'capability', 'environment'], state.options.strictFields === true);
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const capability = text(body, 'capability', 2, 120) ?? '';
  const env = environment(body, 'environment', false) ?? 'sandbox';
  const connector = connectorById(connectorId);
  if (!connector) throw notFound('connectorId: no such connector');
  const cap = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !cap
    ? 'capability_unknown: not in the capability catalog'
    : offered
      ? `offered: ${connector.name} offers ${cap.label} in ${env}`
      : `not_offered: ${connector.name} does not offer ${cap.label}`;
  return {
    decision: {
      connectorId,
      capability,
      allowed: Boolean(cap && offered),
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? true,
      reason,
    },
    environment: env,
  };
}

function publicView(c: ConnectionRow): Record<string, unknown> {
  const { tenant: _tenant, ...rest } = c;
  return rest;
}

export function listConnections(state: State, ctx: Ctx): Record<string, unknown> {
  const connections = state.connections.filter((c) => c.tenant === ctx.tenant).map(publicView);
  if (state.options.connectionsNewestFirst) connections.reverse();
  // SQLite keeps what it was given; a column written by strftime('%Y-%m-%dT%H:%M:%fZ') has milliseconds.
  if (state.options.sqliteMillis)
    for (const c of connections) c.createdAt = String(c.createdAt).replace(/(\.\d{3})\d*/, '$1');
  return { tenant: ctx.tenant, count: connections.length, connections };
}

export function createConnection(state: State, hub: Hub, ctx: Ctx): Record<string, unknown> {
  const body = object(
    ctx.body,
    ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    state.options.strictFields === true,
  );
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body, 'environment', true) ?? '';
  const scopeLabel = text(body, 'scopeLabel', 2, 120) ?? '';
  const caps = textList(body, 'capabilities', 1, 24, 2, 120);
  const connector = connectorById(connectorId);
  if (!connector) throw notFound('connectorId: no such connector');
  const denied = caps.find((c) => !connector.capabilities.includes(c));
  if (denied !== undefined)
    throw new ApiError(
      409,
      'capability_denied',
      'the capability is not released for this connection',
      `capabilities: ${connector.name} does not offer one of them`,
    );
  const row: ConnectionRow = {
    id: rowId(state, ctx.tenant, 'connection', nextId),
    tenant: ctx.tenant,
    connectorId,
    environment: env,
    scopeLabel,
    state: 'pending',
    capabilities: [...new Set(caps)].map((id) => {
      const cap = capabilityById(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? true,
      };
    }),
    nextStep: 'await_activation',
    createdAt: now(state.options.utcOffsetMinutes).text,
  };
  state.connections.push(row);
  appendAudit(
    state,
    ctx.tenant,
    'connection.create',
    ctx.clientId,
    { type: 'connection', id: row.id },
    ctx.rid,
    ctx.key,
  );
  const tenantData = () => publicView(row);
  hub.publish(ctx.tenant, 'connection.created', { connectionId: row.id, state: row.state }, tenantData());
  schedule(state, state.options.activateAfterMs, () => {
    row.state = 'active';
    row.nextStep = 'none';
    appendAudit(state, row.tenant, 'connection.activate', 'system', { type: 'connection', id: row.id }, ctx.rid);
    hub.publish(row.tenant, 'connection.activated', { connectionId: row.id, state: row.state }, tenantData());
  });
  return publicView(row);
}

export function createKey(state: State, ctx: Ctx): Record<string, unknown> {
  const body = object(ctx.body, ['operation'], state.options.strictFields === true);
  const operation = text(body, 'operation', 2, 80) ?? '';
  return issueKey(operation, randomToken(18), state.options.utcOffsetMinutes, state.options.keyTtlMs);
}

export function info(state: State, ctx: Ctx): Record<string, unknown> {
  return {
    tenant: ctx.tenant,
    clientId: ctx.clientId,
    environment: 'sandbox',
    purpose: 'partner integration testing',
    owner: 'integrations@olive.example',
    accessExpiresAt: rfc3339Nano(Date.now() + 90 * 24 * 3600 * 1000, 0, state.options.utcOffsetMinutes),
    tokenExpiresAt: rfc3339Nano(ctx.tokenExpiresAt, 0, state.options.utcOffsetMinutes),
    released: state.released.has(ctx.tenant),
  };
}
