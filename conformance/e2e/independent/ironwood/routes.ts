// The authenticated resource endpoints of ironwood: catalog, capability checks, connections and idempotency
// keys. Each handler gets the call's context and returns an Answer (the server sends it).
import { randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { type Answer, ApiError, type Call, ok, readJson } from './http-util.ts';
import { KEY_TTL_MS, keyed } from './idempotency.ts';
import {
  CAPABILITIES,
  CONNECTORS,
  type Connection,
  capability,
  PROVIDERS,
  type State,
  tenantConnections,
} from './state.ts';
import type { StatusStream } from './stream.ts';
import { environment, idempotencyKey, onlyFields, text, textList } from './validate.ts';
import type { Dispatcher } from './webhooks.ts';

export interface Ctx {
  state: State;
  call: Call;
  tenant: string;
  clientId: string;
  stream: StatusStream;
  dispatcher: Dispatcher;
  /** How long a connection stays Provisioning before Succeeded. */
  provisioningMs: number;
  timers: Set<NodeJS.Timeout>;
  options: {
    auditMaxPage?: number | undefined;
    unknownConnector404?: boolean | undefined;
    deliveryPage?: number | undefined;
  };
}

export function listProviders(ctx: Ctx): Answer {
  const category = ctx.call.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return ok(ctx.call, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): Answer {
  const q = ctx.call.url.searchParams;
  const cap = q.get('capability');
  const providerId = q.get('providerId');
  const category = q.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (cap === null || c.capabilities.includes(cap)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  return ok(ctx.call, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): Answer {
  return ok(ctx.call, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export async function checkCapability(ctx: Ctx): Promise<Answer> {
  const body = await readJson(ctx.call.req);
  const connectorId = text(body, 'connectorId', 2, 120);
  const cap = text(body, 'capability', 2, 120);
  const env = environment(body, 'environment', 'sandbox');
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  const known = capability(cap);
  let allowed = false;
  let reason: string;
  if (!connector && ctx.options.unknownConnector404) {
    throw new ApiError('not_found', 'The connector does not exist.', `connectorId: ${connectorId}`);
  }
  if (!connector) reason = 'ConnectorNotFound: the connector is not in the catalog.';
  else if (!known) reason = 'CapabilityNotFound: the capability is not in the catalog.';
  else if (!connector.capabilities.includes(cap)) reason = 'CapabilityNotOffered: the connector does not offer it.';
  else {
    allowed = true;
    reason = 'Allowed: the connector offers this capability.';
  }
  const decision = {
    connectorId,
    capability: cap,
    allowed,
    critical: known?.critical ?? false,
    idempotencyRequired: known?.idempotencyRequired ?? false,
    reason,
  };
  return ok(ctx.call, { decision, environment: env });
}

export function listConnections(ctx: Ctx): Answer {
  const connections = tenantConnections(ctx.state, ctx.tenant);
  return ok(ctx.call, { tenant: ctx.tenant, count: connections.length, connections });
}

export async function createConnection(ctx: Ctx): Promise<Answer> {
  const key = idempotencyKey(ctx.call.headers, true) as string;
  ctx.call.idempotencyKey = key;
  const body = await readJson(ctx.call.req);
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body, 'environment');
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const caps = textList(body, 'capabilities', 1, 24);
  return keyed(ctx.state, ctx.call, ctx.tenant, key, body, () => {
    const connector = CONNECTORS.find((c) => c.id === connectorId);
    if (!connector) throw new ApiError('not_found', 'The connector does not exist.', `connectorId: ${connectorId}`);
    const denied = caps.find((c) => !connector.capabilities.includes(c));
    if (denied !== undefined) {
      throw new ApiError(
        'capability_denied',
        'The capability is not released for this connector.',
        `capability: ${denied}`,
        'Book the capability for this connector first.',
      );
    }
    const connection: Connection = {
      id: randomUUID(),
      connectorId,
      environment: env,
      scopeLabel,
      state: 'Provisioning',
      capabilities: [...new Set(caps)].map((c) => {
        const known = capability(c);
        return {
          capability: c,
          critical: known?.critical ?? false,
          idempotencyRequired: known?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'WaitForProvisioning',
      createdAt: new Date().toISOString(),
    };
    tenantConnections(ctx.state, ctx.tenant).push(connection);
    record(ctx.state, ctx.tenant, {
      action: 'connection.create',
      resourceType: 'connection',
      resourceId: connection.id,
      clientId: ctx.clientId,
      requestId: ctx.call.requestId,
    });
    ctx.stream.publish('connection.created', { connectionId: connection.id, state: connection.state });
    ctx.dispatcher.emit(ctx.tenant, 'connection.created', { connection: { ...connection } });
    const timer = setTimeout(() => {
      ctx.timers.delete(timer);
      connection.state = 'Succeeded';
      connection.nextStep = 'None';
      ctx.stream.publish('connection.succeeded', { connectionId: connection.id, state: connection.state });
      ctx.dispatcher.emit(ctx.tenant, 'connection.succeeded', { connection: { ...connection } });
    }, ctx.provisioningMs);
    timer.unref();
    ctx.timers.add(timer);
    return { ...connection, capabilities: connection.capabilities.map((c) => ({ ...c })) };
  });
}

export async function issueKey(ctx: Ctx): Promise<Answer> {
  const body = await readJson(ctx.call.req);
  const operation = text(body, 'operation', 2, 80);
  const key = randomUUID();
  const expiresAt = Date.now() + KEY_TTL_MS;
  ctx.state.issuedKeys.set(key, { operation, expiresAt });
  return ok(ctx.call, { idempotencyKey: key, operation, expiresAt: new Date(expiresAt).toISOString() });
}
