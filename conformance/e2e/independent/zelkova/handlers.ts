// Handlers of the catalog, capability checks, connections and idempotency keys.
import { randomBytes, randomUUID } from 'node:crypto';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { ApiError, type Ctx, jsonObject, notFound, ok, pgTime } from './http-kit.ts';
import type { Connection, State } from './state.ts';
import { environment, onlyFields, text, textList } from './validate.ts';

type Handler = (s: State, ctx: Ctx) => void;

const filterBy = <T extends Record<string, unknown>>(rows: T[], params: URLSearchParams, fields: string[]) =>
  rows.filter((r) =>
    fields.every((f) => {
      const want = params.get(f);
      if (want === null) return true;
      const v = r[f];
      return Array.isArray(v) ? v.includes(want) : v === want;
    }),
  );

export const listProviders: Handler = (_s, ctx) => {
  const providers = filterBy(PROVIDERS, ctx.url.searchParams, ['category']);
  ok(ctx, { count: providers.length, providers });
};

export const listConnectors: Handler = (_s, ctx) => {
  const rows = CONNECTORS.map((c) => ({ ...c, capability: c.capabilities }));
  const connectors = filterBy(rows, ctx.url.searchParams, ['capability', 'providerId', 'category']).map(
    ({ capability: _c, ...c }) => c,
  );
  ok(ctx, { count: connectors.length, connectors });
};

export const listCapabilities: Handler = (_s, ctx) =>
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });

export const checkCapability: Handler = (s, ctx) => {
  s.idem.key(ctx, false); // optional here, but a key sent must have the right form
  const body = jsonObject(ctx);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body, false);
  const connector = connectorById(connectorId);
  if (!connector) throw notFound('connector not found');
  const cap = capabilityById(capability);
  const offered = !!cap && connector.capabilities.includes(capability);
  const reason = !cap
    ? 'unknown capability'
    : offered
      ? 'capability offered by the connector'
      : 'capability not offered by this connector';
  ok(ctx, {
    decision: {
      connectorId,
      capability,
      allowed: offered,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  });
};

const publicView = ({ tenant: _t, ...c }: Connection) => c;

export const listConnections: Handler = (s, ctx) => {
  const tenant = ctx.access?.tenant ?? '';
  // Read from the replica: rows younger than its lag are not there yet (no read-after-write promised).
  const seen = Date.now() - (s.options.replicaLagMs ?? 0);
  const connections = s.connections
    .filter((c) => c.tenant === tenant && Date.parse(c.createdAt) <= seen)
    .map(publicView);
  ok(ctx, { tenant, count: connections.length, connections });
};

export const createConnection: Handler = (s, ctx) => {
  const access = ctx.access;
  if (!access) throw new ApiError(401, 'unauthorized', 'call was not signed in');
  const key = s.idem.key(ctx, true);
  const body = jsonObject(ctx);
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body, true);
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const caps = [...new Set(textList(body, 'capabilities', 1, 24))];
  const { data, replayed } = s.idem.run(ctx, key, body, () => {
    const connector = connectorById(connectorId);
    if (!connector) throw notFound('connector not found');
    const denied = caps.filter((c) => !connector.capabilities.includes(c));
    if (denied.length) {
      throw new ApiError(
        409,
        'capability_denied',
        'capability is not released for this connection',
        `not offered by ${connectorId}: ${denied.join(', ')}`,
        'have the capability released',
      );
    }
    const c: Connection = {
      id: randomUUID(),
      tenant: access.tenant,
      connectorId,
      environment: env,
      scopeLabel,
      state: 'pending',
      capabilities: caps.map((id) => ({
        capability: id,
        critical: capabilityById(id)?.critical ?? false,
        idempotencyRequired: capabilityById(id)?.idempotencyRequired ?? false,
      })),
      nextStep: 'wait_for_activation',
      createdAt: pgTime(),
    };
    s.connections.push(c);
    s.audit.append(access.tenant, {
      action: 'connection.create',
      actor: access.clientId,
      resourceType: 'connection',
      resourceId: c.id,
      requestId: ctx.requestId,
      idempotencyKey: key ?? null,
    });
    const event = { connectionId: c.id, connectorId, environment: env, state: c.state };
    s.stream.publish(access.tenant, 'connection.created', event);
    s.hooks.emit(access.tenant, 'connection.created', publicView(c));
    const timer = setTimeout(() => activate(s, c), s.options.activationMs ?? 300);
    s.timers.add(timer);
    return publicView(c);
  });
  ok(ctx, data, { idempotencyKey: key, replayed });
};

function activate(s: State, c: Connection): void {
  c.state = 'active';
  c.nextStep = 'none';
  s.audit.append(c.tenant, {
    action: 'connection.activate',
    actor: 'system',
    resourceType: 'connection',
    resourceId: c.id,
    requestId: randomUUID(),
    idempotencyKey: null,
  });
  s.stream.publish(c.tenant, 'connection.activated', {
    connectionId: c.id,
    connectorId: c.connectorId,
    environment: c.environment,
    state: c.state,
  });
  s.hooks.emit(c.tenant, 'connection.activated', publicView(c));
}

export const createIdempotencyKey: Handler = (s, ctx) => {
  const key = s.idem.key(ctx, false);
  const body = jsonObject(ctx);
  const operation = text(body, 'operation', 2, 80);
  const { data, replayed } = s.idem.run(ctx, key, body, () => ({
    idempotencyKey: `zk_${randomBytes(16).toString('hex')}`,
    operation,
    expiresAt: pgTime(Date.now() + s.idem.ttlMs),
  }));
  ok(ctx, data, key ? { idempotencyKey: key, replayed } : {});
};

export const info: Handler = (s, ctx) => {
  const client = s.auth.clients.find((c) => c.id === ctx.access?.clientId);
  ok(ctx, {
    tenant: ctx.access?.tenant,
    clientId: client?.id,
    environment: 'sandbox',
    purpose: client?.purpose,
    owner: client?.owner,
    accessExpiresAt: client?.expiresAt,
    version: ctx.version,
  });
};
