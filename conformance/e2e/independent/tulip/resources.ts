// Catalog reads, capability decisions and connections. A connection starts `pending` (the provider has to
// confirm), becomes `active` shortly after; each change goes to the stream and to webhooks. A capability the
// connector does not offer is refused with capability_denied.
import { randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Ctx, invalid, notFound, ok, type Rec } from './http.ts';
import { CAPABILITIES, CONNECTORS, ENVIRONMENTS, PROVIDERS, type Store } from './state.ts';
import { publish } from './stream.ts';
import { dispatch } from './webhooks.ts';

function str(body: Rec, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string' || v.length < min || v.length > max) {
    throw invalid(`${field}: string of length ${min} to ${max}`);
  }
  return v;
}

function env(v: unknown, fallback?: string): string {
  if (v === undefined && fallback) return fallback;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v))
    throw invalid(`environment: one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function listProviders(ctx: Ctx): void {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = ctx.query;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability'))) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

function decide(connectorId: string, capability: string): Rec {
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw notFound('Connector');
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const offered = Boolean(cap) && connector.capabilities.includes(capability);
  const reason = !cap ? 'capability_unknown' : offered ? 'offered_by_connector' : 'not_offered_by_connector';
  return {
    connectorId,
    capability,
    allowed: offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
}

export function checkCapability(ctx: Ctx): void {
  const body = (ctx.body ?? {}) as Rec;
  const connectorId = str(body, 'connectorId', 2, 120);
  const capability = str(body, 'capability', 2, 120);
  const environment = env(body.environment, 'sandbox');
  ok(ctx, { decision: decide(connectorId, capability), environment });
}

export function listConnections(store: Store, ctx: Ctx): void {
  const all = store.tenantConnections(ctx.tenant);
  const connections = store.options.newestConnectionsFirst ? [...all].reverse() : all;
  ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

export function getConnection(store: Store, ctx: Ctx): void {
  const c = store.tenantConnections(ctx.tenant).find((x) => x.id === ctx.params.connectionId);
  if (!c) throw notFound('Connection');
  ok(ctx, c);
}

/** Validates the creation body before the idempotency record is consulted (a refusal is never stored). */
export function validateCreation(ctx: Ctx): Rec {
  const body = ctx.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('body: a JSON object');
  const b = body as Rec;
  const caps = b.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) throw invalid('capabilities: 1 to 24 items');
  for (const c of caps)
    if (typeof c !== 'string' || c.length < 2 || c.length > 120)
      throw invalid('capabilities: each a string of length 2 to 120');
  return {
    connectorId: str(b, 'connectorId', 2, 120),
    environment: env(b.environment),
    scopeLabel: str(b, 'scopeLabel', 2, 120),
    capabilities: caps as string[],
  };
}

export function createConnection(store: Store, ctx: Ctx, input: Rec): Rec {
  const decisions = (input.capabilities as string[]).map((c) => decide(input.connectorId, c));
  const denied = decisions.find((d) => !d.allowed);
  if (denied) {
    throw new ApiError(
      409,
      'capability_denied',
      'Capability is not released for this connection',
      `${denied.capability}: ${denied.reason}`,
    );
  }
  const connection: Rec = {
    id: randomUUID(),
    connectorId: input.connectorId,
    environment: input.environment,
    scopeLabel: input.scopeLabel,
    state: store.state('pending'),
    capabilities: decisions.map((d) => ({
      capability: d.capability,
      critical: d.critical,
      idempotencyRequired: d.idempotencyRequired,
    })),
    nextStep: 'await_provider_confirmation',
    createdAt: store.now(),
  };
  store.tenantConnections(ctx.tenant).push(connection);
  record(store, ctx, 'connection.created', 'connection', connection.id);
  const tenant = ctx.tenant;
  const created = { ...connection };
  relay(store, () => {
    publish(store, tenant, { connectionId: created.id, state: created.state, at: created.createdAt });
    dispatch(store, tenant, 'connection.created', { connection: created });
  });
  store.later(store.options.activationMs, () => {
    connection.state = store.state('active');
    connection.nextStep = 'none';
    const at = store.now();
    const activated = { ...connection };
    relay(store, () => {
      publish(store, tenant, {
        connectionId: activated.id,
        state: activated.state,
        previousState: store.state('pending'),
        at,
      });
      dispatch(store, tenant, 'connection.activated', { connection: activated });
    });
  });
  return { ...connection };
}

/** The outbox relay: at once, or after `outboxDelayMs` (a poller moving committed rows to the Topic). */
function relay(store: Store, send: () => void): void {
  if (store.options.outboxDelayMs > 0) store.later(store.options.outboxDelayMs, send);
  else send();
}
