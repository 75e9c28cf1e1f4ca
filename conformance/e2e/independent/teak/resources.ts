// Catalog, capability checks and connections. Connections are Granite records with snowflake ids; a new
// one is `provisioning` and a background job (Kemal's `spawn`) makes it `active` shortly after, each
// change published on the stream and to the webhooks.
import { record } from './audit.ts';
import { type Ctx, halt, jsonBody, str } from './http.ts';
import { CAPABILITIES, CONNECTORS, ENVIRONMENTS, PROVIDERS, type Rec, type Store, snowflake } from './state.ts';
import { publish } from './stream.ts';
import { emit } from './webhooks.ts';

const ACTIVATION_MS = 150;

function filter(list: Rec[], ctx: Ctx, fields: string[]): Rec[] {
  return list.filter((x) =>
    fields.every((f) => {
      const want = ctx.url.searchParams.get(f);
      if (want === null) return true;
      return f === 'capability' ? (x.capabilities as string[]).includes(want) : x[f] === want;
    }),
  );
}

export function listProviders(ctx: Ctx): Rec {
  const providers = filter(PROVIDERS, ctx, ['category']);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): Rec {
  const connectors = filter(CONNECTORS, ctx, ['capability', 'providerId', 'category']);
  return { count: connectors.length, connectors };
}

export function listCapabilities(): Rec {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

function environmentOf(body: Rec, fallback?: string): string {
  const env = body.environment ?? fallback;
  if (typeof env !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(env)) {
    halt('invalid_request', `environment must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return env;
}

/** POST /capabilities: an unknown connector is 404; a capability it does not offer is decided "not allowed". */
export function checkCapability(ctx: Ctx): Rec {
  const body = jsonBody(ctx);
  const connectorId = str(body, 'connectorId', 2, 120);
  const capability = str(body, 'capability', 2, 120);
  const environment = environmentOf(body, 'sandbox');
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) halt('not_found', `connector ${connectorId} does not exist`);
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const offered = (connector.capabilities as string[]).includes(capability);
  const reason = !cap ? 'capability_unknown' : offered ? 'offered_by_connector' : 'not_offered_by_connector';
  const decision = {
    connectorId,
    capability,
    allowed: Boolean(cap) && offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
  return { decision, environment };
}

export function listConnections(store: Store, ctx: Ctx): Rec {
  const connections = store.connections.get(ctx.tenant ?? '') ?? [];
  return { tenant: ctx.tenant, count: connections.length, connections };
}

function changed(store: Store, tenant: string, c: Rec, event: string): void {
  const data = { connectionId: c.id, connectorId: c.connectorId, environment: c.environment, state: c.state };
  publish(store, tenant, event, data);
  emit(store, tenant, event, { connection: c });
}

/** POST /connections (inside `idempotent`): validates, stores, and schedules the activation. */
export function createConnection(store: Store, ctx: Ctx): Rec {
  const body = jsonBody(ctx);
  const connectorId = str(body, 'connectorId', 2, 120);
  const environment = environmentOf(body);
  const scopeLabel = str(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    halt('invalid_request', 'capabilities must be a list of 1 to 24 entries');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      halt('invalid_request', 'each capability must be a string of 2 to 120 characters');
    }
  }
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) halt('not_found', `connector ${connectorId} does not exist`);
  const wanted = [...new Set(caps as string[])];
  const unknown = wanted.find((c) => !CAPABILITIES.some((k) => k.id === c));
  if (unknown) halt('invalid_request', `capability ${unknown} is not in the catalog`);
  const denied = wanted.find((c) => !(connector.capabilities as string[]).includes(c));
  if (denied) halt('capability_denied', `connector ${connectorId} does not offer ${denied}`);
  const tenant = ctx.tenant ?? '';
  const conn: Rec = {
    id: snowflake(1n),
    connectorId,
    environment,
    scopeLabel,
    state: 'provisioning',
    capabilities: wanted.map((id) => {
      const k = CAPABILITIES.find((x) => x.id === id) ?? {};
      return { capability: id, critical: k.critical, idempotencyRequired: k.idempotencyRequired };
    }),
    nextStep: 'wait_for_activation',
    createdAt: new Date().toISOString(),
  };
  const list = store.connections.get(tenant) ?? [];
  store.connections.set(tenant, [...list, conn]);
  record(store, tenant, 'connection.created', ['connection', conn.id], ctx.clientId ?? '');
  changed(store, tenant, conn, 'connection.created');
  const stored = { ...conn };
  setTimeout(() => {
    Object.assign(stored, { state: 'active', nextStep: 'none' });
    const now = store.connections.get(tenant) ?? [];
    store.connections.set(
      tenant,
      now.map((c) => (c.id === conn.id ? stored : c)),
    );
    record(store, tenant, 'connection.activated', ['connection', conn.id], 'system');
    changed(store, tenant, stored, 'connection.state_changed');
  }, ACTIVATION_MS).unref();
  return conn;
}
