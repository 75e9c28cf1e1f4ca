// The catalog and connection resource functions of `service /api/public/v1`: each returns a record the
// envelope layer wraps. Connection states are a Ballerina enum, serialised as its upper-case member names.
import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, PROVIDERS } from './catalog.ts';
import { ApiError, type Ctx, jsonBody, ok, str } from './http.ts';
import { once } from './idempotency.ts';
import { civilNow, ENVIRONMENTS, type Rec, uuid } from './state.ts';
import { publish } from './stream.ts';
import { dispatch } from './webhooks.ts';

const param = (ctx: Ctx, name: string): string | null => ctx.url.searchParams.get(name);

export function listProviders(ctx: Ctx): void {
  const category = param(ctx, 'category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const [capability, providerId, category] = ['capability', 'providerId', 'category'].map((n) => param(ctx, n));
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

function environment(body: Rec, fallback?: string): string {
  const env = body.environment ?? fallback;
  if (typeof env !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(env)) {
    throw new ApiError('invalid_request', `Field 'environment' must be one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return env;
}

function connectorOf(id: string): Rec {
  const connector = CONNECTORS.find((c) => c.id === id);
  if (!connector)
    throw new ApiError(
      'not_found',
      `Connector '${id}' does not exist.`,
      'Compare the identifier with GET /connectors.',
    );
  return connector;
}

export function checkCapability(ctx: Ctx): void {
  const body = jsonBody(ctx);
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const capability = str(body, 'capability', 2, 120) ?? '';
  const env = environment(body, 'sandbox');
  const known = CONNECTORS.find((c) => c.id === connectorId);
  if (!known && ctx.store.options.unknownConnectorDecision) {
    // The capability's own flags, whatever the connector: a flag describes the capability, not the decision.
    const c = CAPABILITIES.find((x) => x.id === capability);
    const flags = { critical: c?.critical ?? false, idempotencyRequired: c?.idempotencyRequired ?? false };
    const reason = 'CONNECTOR_UNKNOWN: the connector is not in the catalog';
    ok(ctx, { decision: { connectorId, capability, allowed: false, ...flags, reason }, environment: env });
    return;
  }
  const connector = connectorOf(connectorId);
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const allowed = Boolean(cap) && connector.capabilities.includes(capability);
  const reason = !cap
    ? 'CAPABILITY_UNKNOWN: the capability is not in the catalog'
    : allowed
      ? 'CAPABILITY_OFFERED: the connector offers this capability'
      : 'CAPABILITY_NOT_OFFERED: the connector does not offer this capability';
  ok(ctx, {
    decision: {
      connectorId,
      capability,
      allowed,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  });
}

export function listConnections(ctx: Ctx): void {
  const connections = ctx.store.connections.get(ctx.tenant ?? '') ?? [];
  ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

function validateCreation(body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', "Field 'capabilities' must be an array of 1 to 24 strings.");
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw new ApiError('invalid_request', "Each entry of 'capabilities' must be a string of 2 to 120 characters.");
    }
  }
  return { connectorId, environment: env, scopeLabel, capabilities: caps as string[] };
}

export function createConnection(ctx: Ctx): void {
  const body = jsonBody(ctx);
  const input = validateCreation(body);
  once(ctx, 'connection.create', body, () => {
    const connector = connectorOf(input.connectorId);
    const denied = (input.capabilities as string[]).find((c) => !connector.capabilities.includes(c));
    if (denied) {
      throw new ApiError(
        'capability_denied',
        `Capability '${denied}' is not released for connector '${connector.id}'.`,
        'Have the capability released.',
      );
    }
    const review = input.environment === 'pilot' || input.environment === 'production';
    const connection = {
      id: uuid(),
      connectorId: connector.id,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: review ? 'PENDING_REVIEW' : ctx.store.options.activationMs > 0 ? 'PROVISIONING' : 'ACTIVE',
      capabilities: (input.capabilities as string[]).map((id) => {
        const cap = CAPABILITIES.find((c) => c.id === id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: review ? 'WAIT_FOR_PARTNER_REVIEW' : 'SEND_TEST_TRAFFIC',
      createdAt: civilNow(),
    };
    const tenant = ctx.tenant ?? '';
    const list = ctx.store.connections.get(tenant) ?? [];
    list.push(connection);
    ctx.store.connections.set(tenant, list);
    record(ctx.store, tenant, ctx.clientId ?? '', 'connection.create', 'connection', connection.id);
    publish(ctx.store, tenant, 'connection.created', connection);
    dispatch(ctx.store, tenant, 'connection.created', connection);
    if (connection.state === 'PROVISIONING') {
      const store = ctx.store;
      setTimeout(() => {
        connection.state = 'ACTIVE';
        publish(store, tenant, 'connection.activated', connection);
        dispatch(store, tenant, 'connection.activated', connection);
      }, store.options.activationMs).unref();
    }
    return connection;
  });
}
