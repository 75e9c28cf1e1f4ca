// The interface's catalog, capability, connection and idempotency-key operations.
import { appendAudit } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { dispatch } from './delivery.ts';
import { ApiError, type Ctx, now, ok, readJson, uuid } from './http.ts';
import { idempotent, KEY_TTL_MS } from './idempotency.ts';
import { type Connection, later, type State } from './store.ts';
import { publish } from './stream.ts';
import { environment, onlyFields, text, textList } from './validate.ts';

const query = (ctx: Ctx, name: string): string | null => ctx.url.searchParams.get(name);

export function listProviders(_s: State, ctx: Ctx): void {
  const category = query(ctx, 'category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(_s: State, ctx: Ctx): void {
  const capability = query(ctx, 'capability');
  const providerId = query(ctx, 'providerId');
  const category = query(ctx, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(_s: State, ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export async function checkCapability(state: State, ctx: Ctx): Promise<void> {
  const body = await readJson(ctx);
  onlyFields(body, ['connectorId', 'capability', 'environment']);
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const capability = text(body, 'capability', 2, 120) ?? '';
  const env = environment(body, 'environment', 'sandbox');
  const connector = connectorById(connectorId);
  if (!connector && !state.options.unknownConnectorDecision)
    throw new ApiError(
      'not_found',
      'No connector has this connectorId.',
      'Compare the identifier with GET /api/public/v1/connectors.',
    );
  const cap = capabilityById(capability);
  const offered = connector?.capabilities.includes(capability) === true;
  const decision = {
    connectorId,
    capability,
    allowed: offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: offered
      ? 'CAPABILITY_OFFERED'
      : !connector
        ? 'CONNECTOR_UNKNOWN'
        : cap
          ? 'CAPABILITY_NOT_OFFERED_BY_CONNECTOR'
          : 'CAPABILITY_UNKNOWN',
  };
  ok(ctx, { decision, environment: env });
}

export function listConnections(state: State, ctx: Ctx): void {
  const tenant = ctx.tenant ?? '';
  const connections = state.connections.get(tenant) ?? [];
  ok(ctx, { tenant, count: connections.length, connections });
}

export async function createConnection(state: State, ctx: Ctx): Promise<void> {
  const body = await readJson(ctx);
  const tenant = ctx.tenant ?? '';
  idempotent(
    state,
    ctx,
    true,
    body,
    () => {
      onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
      const connectorId = text(body, 'connectorId', 2, 120) ?? '';
      const env = environment(body, 'environment');
      const scopeLabel = text(body, 'scopeLabel', 2, 120) ?? '';
      const wanted = textList(body, 'capabilities', 1, 24, 2, 120);
      const connector = connectorById(connectorId);
      if (!connector)
        throw new ApiError(
          'not_found',
          'No connector has this connectorId.',
          'Compare the identifier with GET /api/public/v1/connectors.',
        );
      const missing = wanted.filter((c) => !connector.capabilities.includes(c));
      if (missing.length > 0) {
        throw new ApiError(
          'capability_denied',
          `Capability ${missing.join(', ')} is not released for this connector.`,
          'Have the capability released, or check POST /api/public/v1/capabilities first.',
        );
      }
      const at = now();
      const connection: Connection = {
        id: uuid(),
        connectorId,
        environment: env,
        scopeLabel,
        state: 'PENDING',
        capabilities: wanted.map((c) => {
          const cap = capabilityById(c);
          return {
            capability: c,
            critical: cap?.critical ?? false,
            idempotencyRequired: cap?.idempotencyRequired ?? false,
          };
        }),
        nextStep: 'WAIT_FOR_ACTIVATION',
        createdAt: at,
        updatedAt: at,
      };
      const list = state.connections.get(tenant) ?? [];
      list.push(connection);
      state.connections.set(tenant, list);
      const snapshot = structuredClone(connection);
      appendAudit(state, tenant, {
        action: 'CONNECTION_CREATED',
        resourceType: 'connection',
        resourceId: connection.id,
        actor: ctx.clientId ?? '',
        requestId: ctx.requestId,
        idempotencyKey: ctx.req.headers['idempotency-key'],
      });
      announce(state, tenant, 'connection.created', snapshot);
      later(state, state.options.activationMs, () => {
        // The switch holds production connections with a critical capability DISABLED until support reviews them.
        const held =
          state.options.productionDisabled === true &&
          env === 'production' &&
          connection.capabilities.some((c) => c.critical);
        connection.state = held ? 'DISABLED' : 'ENABLED';
        connection.nextStep = held ? 'CONTACT_SUPPORT' : 'NONE';
        connection.updatedAt = now();
        appendAudit(state, tenant, {
          action: held ? 'CONNECTION_DISABLED' : 'CONNECTION_ENABLED',
          resourceType: 'connection',
          resourceId: connection.id,
          actor: 'system',
        });
        announce(state, tenant, held ? 'connection.disabled' : 'connection.enabled', structuredClone(connection));
      });
      return snapshot;
    },
    'connection.create',
  );
}

/** The stream carries no tenant data (it is public): ids, connector, environment and state only. */
function announce(state: State, tenant: string, type: string, c: Connection): void {
  publish(state, type, {
    type,
    connectionId: c.id,
    connectorId: c.connectorId,
    environment: c.environment,
    state: c.state,
    at: c.updatedAt,
  });
  dispatch(state, tenant, type, { connection: c });
}

export async function issueKey(state: State, ctx: Ctx): Promise<void> {
  const body = await readJson(ctx);
  idempotent(
    state,
    ctx,
    false,
    body,
    () => {
      onlyFields(body, ['operation']);
      const operation = text(body, 'operation', 2, 80) ?? '';
      const idempotencyKey = uuid();
      const expiresAt = new Date(Date.now() + KEY_TTL_MS).toISOString();
      state.issuedKeys.set(idempotencyKey, { operation, expiresAt });
      return { idempotencyKey, operation, expiresAt };
    },
    'idempotency-key.create',
  );
}

export function info(state: State, ctx: Ctx): void {
  ok(ctx, {
    tenant: ctx.tenant,
    clientId: ctx.clientId,
    environment: 'sandbox',
    released: state.tenants.released.includes(ctx.tenant ?? ''),
  });
}
