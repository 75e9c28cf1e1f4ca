// Controllers of the catalog, capability checks, connections, idempotency keys and /info.

import { appendAudit } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, decide, PROVIDERS } from './catalog.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import type { App } from './state.ts';
import { type Connection, later } from './state.ts';
import { publish } from './stream.ts';
import { ApiError, badRequest, type Ctx, cuid, notFound, readBody } from './util.ts';
import { CheckCapabilityDto, CreateConnectionDto, CreateKeyDto, validateDto } from './validate.ts';
import { emit } from './webhooks.ts';

export function listProviders(_app: App, ctx: Ctx) {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(_app: App, ctx: Ctx) {
  const capability = ctx.query.get('capability');
  const providerId = ctx.query.get('providerId');
  const category = ctx.query.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export const listCapabilities = () => ({ count: CAPABILITIES.length, capabilities: CAPABILITIES });

export async function checkCapability(app: App, ctx: Ctx) {
  const dto = validateDto(await readBody(ctx.req), CheckCapabilityDto, app.state.opts.forbidUnknown);
  const connectorId = dto.connectorId as string;
  if (!connectorById(connectorId)) throw notFound(`connector ${connectorId} does not exist`);
  return {
    decision: decide(connectorId, dto.capability as string),
    environment: (dto.environment as string) ?? 'sandbox',
  };
}

export function listConnections(app: App, ctx: Ctx) {
  const connections = app.state.connections.get(ctx.tenant ?? '') ?? [];
  return { tenant: ctx.tenant, count: connections.length, connections };
}

export async function createConnection(app: App, ctx: Ctx) {
  const key = app.idem.requireKey(ctx);
  const body = await readBody(ctx.req);
  const dto = validateDto(body, CreateConnectionDto, app.state.opts.forbidUnknown);
  return app.idem.run(ctx, key, body, () => {
    const connectorId = dto.connectorId as string;
    const connector = connectorById(connectorId);
    if (!connector) throw notFound(`connector ${connectorId} does not exist`);
    const wanted = [...new Set(dto.capabilities as string[])];
    const unknown = wanted.filter((c) => !capabilityById(c));
    if (unknown.length) throw badRequest(`capabilities: unknown capability ${unknown.join(', ')}`);
    const denied = wanted.filter((c) => !connector.capabilities.includes(c));
    if (denied.length) {
      throw new ApiError(
        409,
        'capability_denied',
        'Capability is not released for this connection',
        `${denied.join(', ')} not offered by ${connectorId}`,
        'Have the capability released',
      );
    }
    const conn: Connection = {
      id: cuid(),
      connectorId,
      environment: dto.environment as string,
      scopeLabel: dto.scopeLabel as string,
      state: 'pending',
      capabilities: wanted.map((c) => {
        const cap = capabilityById(c);
        return {
          capability: c,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'await_provisioning',
      createdAt: new Date().toISOString(),
    };
    const tenant = ctx.tenant ?? '';
    const list = app.state.connections.get(tenant) ?? [];
    list.push(conn);
    app.state.connections.set(tenant, list);
    appendAudit(app.state, ctx, 'connection.create', 'connection', conn.id);
    const streamPayload = {
      connectionId: conn.id,
      connectorId,
      environment: conn.environment,
      state: conn.state,
      occurredAt: conn.createdAt,
    };
    publish(app.state, 'connection.created', streamPayload);
    emit(app.state, tenant, 'connection.created', { connection: { ...conn } });
    later(app.state, app.state.opts.activationMs, () => {
      conn.state = 'active';
      conn.nextStep = 'none';
      const at = new Date().toISOString();
      publish(app.state, 'connection.updated', { ...streamPayload, state: conn.state, occurredAt: at });
      emit(app.state, tenant, 'connection.updated', { connection: { ...conn }, previousState: 'pending' });
    });
    return { ...conn };
  });
}

export async function createIdempotencyKey(app: App, ctx: Ctx) {
  const dto = validateDto(await readBody(ctx.req), CreateKeyDto, app.state.opts.forbidUnknown);
  return {
    idempotencyKey: `idk.${cuid()}`,
    operation: dto.operation as string,
    expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString(),
  };
}

export function info(app: App, ctx: Ctx) {
  return {
    tenant: ctx.tenant,
    clientId: ctx.clientId,
    environment: 'sandbox',
    version: ctx.version,
    tokenExpiresAt: app.auth.expiresAt(ctx),
    purpose: 'partner integration',
    owner: 'integration-team@dogwood.example',
  };
}
