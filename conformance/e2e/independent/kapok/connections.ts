// Catalog reads, capability checks, connections and idempotency keys: the contract's core endpoints.
// Connections start `new` and turn `live` shortly after (on the stream, in webhooks and in the audit chain).

import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, ENVIRONMENTS, PROVIDERS } from './catalog.ts';
import { ApiError, bad, chars, nowIso, onlyFields, text, uuidv7 } from './http-util.ts';
import type { Ctx } from './router.ts';
import { type Connection, later } from './state.ts';
import { publish } from './stream.ts';
import { emit } from './webhooks.ts';

function optionalQuery(ctx: Ctx, name: string): string | undefined {
  const v = ctx.url.searchParams.get(name);
  return v === null ? undefined : v;
}

export function listProviders(ctx: Ctx) {
  const category = optionalQuery(ctx, 'category');
  const providers = PROVIDERS.filter((p) => category === undefined || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx) {
  const capability = optionalQuery(ctx, 'capability');
  const providerId = optionalQuery(ctx, 'providerId');
  const category = optionalQuery(ctx, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === undefined || c.capabilities.includes(capability)) &&
      (providerId === undefined || c.providerId === providerId) &&
      (category === undefined || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export const listCapabilities = () => ({ count: CAPABILITIES.length, capabilities: CAPABILITIES });

function environment(body: Record<string, unknown>, fallback?: string): string {
  const v = body.environment === undefined ? fallback : body.environment;
  if (v === undefined) throw bad('environment is required');
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v))
    throw bad(`environment must be one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function checkCapability(ctx: Ctx) {
  const body = ctx.body();
  onlyFields(body, ['connectorId', 'capability', 'environment'], ctx.s.opts.strictBodies);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body, 'sandbox');
  const connector = connectorById(connectorId);
  if (!connector && !ctx.s.opts.unknownConnectorDecision)
    throw new ApiError('not_found', 'connector not found', undefined, 'compare the identifier with GET /connectors');
  const c = capabilityById(capability);
  const offered = connector?.capabilities.includes(capability) ?? false;
  const reason = !connector
    ? 'unknown connector'
    : !c
      ? 'unknown capability'
      : offered
        ? `offered by the connector in ${env}`
        : 'not offered by this connector';
  return {
    decision: {
      connectorId,
      capability,
      allowed: Boolean(c && offered),
      critical: c?.critical ?? false,
      idempotencyRequired: c?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  };
}

export function listConnections(ctx: Ctx) {
  const connections = [...ctx.s.connections.values()]
    .filter((c) => c.tenant === ctx.caller.tenant)
    .map(({ tenant: _t, ...c }) => c);
  return { tenant: ctx.caller.tenant, count: connections.length, connections };
}

const CREATE_FIELDS = ['connectorId', 'environment', 'scopeLabel', 'capabilities'];

export function createConnection(ctx: Ctx) {
  const body = ctx.body();
  const unknown = Object.keys(body).filter((k) => !CREATE_FIELDS.includes(k));
  if (unknown.length) throw bad(`unknown field ${unknown[0]}`, `the body holds exactly ${CREATE_FIELDS.join(', ')}`);
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body);
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps)) throw bad('capabilities must be an array of strings');
  if (caps.length < 1 || caps.length > 24) throw bad('capabilities must hold 1 to 24 items');
  for (const [i, c] of caps.entries()) {
    if (typeof c !== 'string' || chars(c) < 2 || chars(c) > 120)
      throw bad(`capabilities[${i}] must be a string of 2 to 120 characters`);
  }
  const connector = connectorById(connectorId);
  if (!connector)
    throw new ApiError('not_found', 'connector not found', undefined, 'compare the identifier with GET /connectors');
  const missing = (caps as string[]).find((c) => !connector.capabilities.includes(c));
  if (missing !== undefined)
    throw new ApiError(
      'capability_denied',
      'capability is not released for this connection',
      `not offered: ${missing}`,
      'have the capability released',
    );
  const conn: Connection = {
    id: uuidv7(),
    connectorId,
    environment: env,
    scopeLabel,
    state: 'new',
    capabilities: (caps as string[]).map((id) => {
      const c = capabilityById(id);
      return { capability: id, critical: c?.critical ?? false, idempotencyRequired: c?.idempotencyRequired ?? false };
    }),
    nextStep: 'wait_for_live',
    createdAt: nowIso(),
  };
  const s = ctx.s;
  const tenant = ctx.caller.tenant;
  s.connections.set(conn.id, { ...conn, tenant });
  record(s, tenant, 'connection.create', conn.id);
  const summary = (c: Connection) => ({
    connectionId: c.id,
    connectorId: c.connectorId,
    environment: c.environment,
    state: c.state,
  });
  publish(s, 'connection.created', summary(conn));
  emit(s, tenant, 'connection.created', { connection: conn });
  later(s, s.opts.liveAfterMs, () => {
    const stored = s.connections.get(conn.id);
    if (!stored) return;
    stored.state = 'live';
    stored.nextStep = 'none';
    record(s, tenant, 'connection.live', conn.id);
    publish(s, 'connection.live', summary(stored));
    const { tenant: _t, ...live } = stored;
    emit(s, tenant, 'connection.live', { connection: live });
  });
  return conn;
}

export function issueKey(ctx: Ctx) {
  onlyFields(ctx.body(), ['operation'], ctx.s.opts.strictBodies);
  const operation = text(ctx.body(), 'operation', 2, 80);
  return {
    idempotencyKey: `kpk.${uuidv7()}`,
    operation,
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  };
}

export function info(ctx: Ctx) {
  return {
    tenant: ctx.caller.tenant,
    clientId: ctx.caller.clientId,
    environment: 'sandbox',
    tokenExpiresAt: new Date(ctx.caller.expires).toISOString(),
  };
}
