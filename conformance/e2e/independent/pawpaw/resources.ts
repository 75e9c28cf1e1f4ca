// Catalog and connections: Micronaut controllers over the in-memory repositories. A connection starts
// REQUESTED and a scheduled job moves it to ACTIVE (Kotlin enum constants, written by name).
import { randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { bad, type Ctx, HttpProblem, jsonBody, ok, text } from './http.ts';
import { idempotent } from './idempotency.ts';
import { CATALOG, ENVIRONMENTS, instant, type Rec, type Store } from './state.ts';
import { publish } from './stream.ts';

const capabilityOf = (id: string) => CATALOG.capabilities.find((c) => c.id === id);

/** Jackson's default: enum values are read case-sensitively (ACCEPT_CASE_INSENSITIVE_ENUMS stays off). */
function environment(v: unknown, fallback?: string): string {
  if ((v === undefined || v === null) && fallback) return fallback;
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v))
    throw bad(`environment: must be one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function listProviders(ctx: Ctx) {
  const category = ctx.query.get('category');
  const providers = CATALOG.providers.filter((p) => !category || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx) {
  const [cap, provider, category] = ['capability', 'providerId', 'category'].map((k) => ctx.query.get(k));
  const connectors = CATALOG.connectors.filter(
    (c) =>
      (!cap || c.capabilities.includes(cap)) &&
      (!provider || c.providerId === provider) &&
      (!category || c.category === category),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx) {
  ok(ctx, { count: CATALOG.capabilities.length, capabilities: CATALOG.capabilities });
}

/** POST /capabilities: an unknown connector is 404; a capability it does not list is decided "not allowed". */
export function checkCapability(store: Store, ctx: Ctx) {
  const body = jsonBody(ctx);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body.environment, 'sandbox');
  const connector = CATALOG.connectors.find((c) => c.id === connectorId);
  if (!connector) throw new HttpProblem('not_found', `Connector ${connectorId} not found`);
  const cap = capabilityOf(capability);
  if (!cap && store.options.unknownCapability404)
    throw new HttpProblem('not_found', `Capability ${capability} not found`);
  const allowed = Boolean(cap) && connector.capabilities.includes(capability);
  const reason = !cap ? 'UNKNOWN_CAPABILITY' : allowed ? 'OFFERED_BY_CONNECTOR' : 'NOT_OFFERED_BY_CONNECTOR';
  const decision = {
    connectorId,
    capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? true,
    reason,
  };
  ok(ctx, { decision, environment: env });
}

export function listConnections(store: Store, ctx: Ctx) {
  const connections = store.connections.filter((c) => c.tenant === ctx.tenant).map(view);
  ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

/** The entity without its tenant column (@JsonIgnore). */
export const view = ({ tenant: _t, ...c }: Rec) => c;

const NEXT_STEP: Record<string, string> = {
  REQUESTED: 'AWAIT_PROVISIONING',
  ACTIVE: 'NONE',
  PAUSED: 'CONTACT_SUPPORT',
};

export function createConnection(store: Store, ctx: Ctx) {
  idempotent(store, ctx, () => {
    const body = jsonBody(ctx);
    const connectorId = text(body, 'connectorId', 2, 120);
    const env = environment(body.environment);
    const scopeLabel = text(body, 'scopeLabel', 2, 120);
    const caps = body.capabilities;
    if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24)
      throw bad('capabilities: size must be between 1 and 24');
    for (const [i, c] of caps.entries()) text({ [`capabilities[${i}]`]: c }, `capabilities[${i}]`, 2, 120);
    const connector = CATALOG.connectors.find((c) => c.id === connectorId);
    if (!connector) throw new HttpProblem('not_found', `Connector ${connectorId} not found`);
    const unknown = (caps as string[]).find((c) => !capabilityOf(c));
    if (unknown && store.options.unknownCapability404)
      throw new HttpProblem('not_found', `Capability ${unknown} not found`);
    const refused = (caps as string[]).find((c) => !connector.capabilities.includes(c));
    if (refused)
      throw new HttpProblem(
        'capability_denied',
        `Capability ${refused} is not released for ${connectorId}`,
        undefined,
        'Have the capability released.',
      );
    const connection: Rec = {
      id: randomUUID(),
      tenant: ctx.tenant,
      connectorId,
      environment: env,
      scopeLabel,
      state: 'REQUESTED',
      capabilities: (caps as string[]).map((c) => {
        const cap = capabilityOf(c);
        return {
          capability: c,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? true,
        };
      }),
      nextStep: NEXT_STEP.REQUESTED,
      createdAt: instant(undefined, store.options.utcOffsetMinutes),
    };
    store.connections.push(connection);
    record(store, String(ctx.tenant), 'CONNECTION_CREATED', connection.id, ctx.clientId, { scopeLabel, connectorId });
    publish(store, String(ctx.tenant), 'connection.created', view(connection));
    // The provisioning job of the team: activated shortly after, as a @Scheduled poller would.
    const t = setTimeout(() => activate(store, connection), 300);
    store.timers.push(t);
    return view(connection);
  });
}

function activate(store: Store, c: Rec) {
  c.state = 'ACTIVE';
  c.nextStep = NEXT_STEP.ACTIVE;
  record(store, c.tenant, 'CONNECTION_ACTIVATED', c.id, 'system', { state: 'ACTIVE' });
  publish(store, c.tenant, 'connection.activated', view(c));
}
