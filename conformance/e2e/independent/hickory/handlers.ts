// The interface's own resources: catalog reads, capability decisions, connections, idempotency keys, /info.
import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { issueKey } from './idempotency.ts';
import { type Connection, later, type State } from './state.ts';
import { publish } from './stream.ts';
import { ApiError, type Ctx, nanoid, type Result, stamp } from './util.ts';
import { emit } from './webhooks.ts';

const ok = (data: unknown): Result => ({ status: 200, data });

/** Reads a filter: absent null; refused when strictFilterValues and no entry has it; lower-cased when case-insensitive. */
function filter(state: State, ctx: Ctx, name: string, known: string[]): string | null {
  const v = ctx.url.searchParams.get(name);
  if (v === null) return null;
  const fold = (x: string) => (state.options.caseInsensitiveFilters ? x.toLowerCase() : x);
  if (state.options.strictFilterValues && !known.some((k) => fold(k) === fold(v))) {
    throw new ApiError('invalid_request', `Unknown ${name}.`, { hint: `One of: ${[...new Set(known)].join(', ')}.` });
  }
  return fold(v);
}

function matches(state: State, value: string, wanted: string | null): boolean {
  return wanted === null || (state.options.caseInsensitiveFilters ? value.toLowerCase() : value) === wanted;
}

export function listProviders(state: State, ctx: Ctx): Result {
  const category = filter(
    state,
    ctx,
    'category',
    PROVIDERS.map((p) => p.category),
  );
  const providers = PROVIDERS.filter((p) => matches(state, p.category, category));
  return ok({ count: providers.length, providers });
}

export function listConnectors(state: State, ctx: Ctx): Result {
  const capability = filter(
    state,
    ctx,
    'capability',
    CAPABILITIES.map((c) => c.id),
  );
  const providerId = filter(
    state,
    ctx,
    'providerId',
    PROVIDERS.map((p) => p.id),
  );
  const category = filter(
    state,
    ctx,
    'category',
    PROVIDERS.map((p) => p.category),
  );
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.some((x) => matches(state, x, capability))) &&
      matches(state, c.providerId, providerId) &&
      matches(state, c.category, category),
  );
  return ok({ count: connectors.length, connectors });
}

export function listCapabilities(): Result {
  return ok({ count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export function checkCapability(body: Record<string, unknown>): Result {
  const connectorId = String(body.connectorId);
  const capability = String(body.capability);
  const environment = typeof body.environment === 'string' ? body.environment : 'sandbox';
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'No connector with this id.', { hint: 'See GET /connectors.' });
  const cap = capabilityById(capability);
  const allowed = cap !== undefined && connector.capabilities.includes(capability);
  const reason = !cap
    ? 'unknown_capability: the catalog has no such capability'
    : allowed
      ? `offered: ${connector.name} offers ${capability} in ${environment}`
      : `not_offered: ${connector.name} does not offer ${capability}`;
  const decision = {
    connectorId,
    capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
  return ok({ decision, environment });
}

const publicView = ({ tenant: _tenant, ...c }: Connection) => c;

export function listConnections(state: State, ctx: Ctx): Result {
  const connections = state.connections.filter((c) => c.tenant === ctx.tenant).map(publicView);
  return ok({ tenant: ctx.tenant, count: connections.length, connections });
}

export function createConnection(state: State, ctx: Ctx, body: Record<string, unknown>): Result {
  const connector = connectorById(String(body.connectorId));
  if (!connector) throw new ApiError('not_found', 'No connector with this id.', { hint: 'See GET /connectors.' });
  const requested = body.capabilities as string[];
  const missing = requested.find((c) => !connector.capabilities.includes(c) || !capabilityById(c));
  if (missing !== undefined) {
    throw new ApiError('capability_denied', 'A requested capability is not released for this connector.', {
      detail: `capability: ${missing}`,
      hint: 'Have the capability released, or request only capabilities the connector lists.',
    });
  }
  const tenant = ctx.tenant ?? '';
  const c: Connection = {
    id: nanoid(),
    connectorId: connector.id,
    environment: String(body.environment),
    scopeLabel: String(body.scopeLabel),
    state: 'created',
    capabilities: requested.map((id) => {
      const cap = capabilityById(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'Hickory activates the connection within seconds; watch the stream or a webhook.',
    createdAt: stamp(state.options.timeOffsetMin),
    tenant,
  };
  state.connections.push(c);
  const view = publicView(c);
  record(state, tenant, 'connection.created', ctx.clientId ?? '', { type: 'connection', id: c.id }, ctx.idempotencyKey);
  publish(state, 'connection.created', { connectionId: c.id, state: c.state });
  emit(state, tenant, 'connection.created', { connection: view });
  later(state, state.options.activationMs, () => {
    c.state = 'active';
    c.nextStep = 'None: the connection is active.';
    record(state, tenant, 'connection.activated', 'hickory', { type: 'connection', id: c.id });
    publish(state, 'connection.activated', { connectionId: c.id, state: c.state });
    emit(state, tenant, 'connection.activated', { connection: publicView(c) });
    if (state.options.suspendAfterMs > 0) later(state, state.options.suspendAfterMs, () => suspend(state, c));
  });
  return ok(view);
}

/** The sandbox pauses an idle connection (one of the states a connection may take: created, active, suspended). */
function suspend(state: State, c: Connection): void {
  c.state = 'suspended';
  c.nextStep = 'Resume the connection through support; capabilities are denied while it is suspended.';
  record(state, c.tenant, 'connection.suspended', 'hickory', { type: 'connection', id: c.id });
  publish(state, 'connection.suspended', { connectionId: c.id, state: c.state });
  emit(state, c.tenant, 'connection.suspended', { connection: publicView(c) });
}

export function createKey(state: State, body: Record<string, unknown>): Result {
  return issueKey(state, String(body.operation));
}

export function info(state: State, ctx: Ctx): Result {
  const token = /^Bearer\s+(\S+)$/i.exec(String(ctx.req.headers.authorization ?? ''))?.[1] ?? '';
  const expiresAt = state.tokens.get(token)?.expiresAt ?? Date.now();
  return ok({
    service: 'hickory',
    tenant: ctx.tenant,
    clientId: ctx.clientId,
    environment: 'sandbox',
    purpose: 'conformance and integration testing',
    owner: 'platform-team@hickory.example',
    tokenExpiresAt: stamp(state.options.timeOffsetMin, expiresAt),
  });
}
