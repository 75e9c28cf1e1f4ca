// The controllers: catalog, capability checks, connections, keys, info and webhooks. Each returns the
// data of its answer (or throws an ApiError); server.ts wraps it in the envelope and the key handling.
import { randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, decide, findCapability, findConnector, PROVIDERS } from './catalog.ts';
import { issueKey } from './idempotency.ts';
import { type Connection, later, type State } from './state.ts';
import { publish } from './stream.ts';
import { ApiError, type Ctx } from './util.ts';
import { capabilityCheckBody, connectionBody, keyRequestBody } from './validate.ts';
import { emit } from './webhooks.ts';

export interface Call {
  ctx: Ctx;
  tenant: string;
  clientId: string;
  tokenExpiresAt: number;
  body: Record<string, unknown>;
  params: string[];
}

export function listProviders(_s: State, c: Call) {
  const category = c.ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(_s: State, c: Call) {
  const q = c.ctx.query;
  const connectors = CONNECTORS.filter(
    (x) =>
      (q.get('capability') === null || x.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || x.providerId === q.get('providerId')) &&
      (q.get('category') === null || x.category === q.get('category')),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities() {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

export function checkCapability(_s: State, c: Call) {
  const b = capabilityCheckBody(c.body);
  const connector = findConnector(b.connectorId);
  if (!connector)
    throw new ApiError('not_found', 'Connector not found', undefined, 'list connectors with GET /connectors');
  return { decision: decide(connector, b.capability, b.environment), environment: b.environment };
}

export function listConnections(s: State, c: Call) {
  const connections = s.connections.get(c.tenant) ?? [];
  return { tenant: c.tenant, count: connections.length, connections };
}

export function whodunnit(c: Call): string {
  return `oauth_application:${c.clientId}`;
}

export function createConnection(s: State, c: Call) {
  const b = connectionBody(c.body);
  const connector = findConnector(b.connectorId);
  if (!connector)
    throw new ApiError('not_found', 'Connector not found', undefined, 'list connectors with GET /connectors');
  b.capabilities.forEach((cap, i) => {
    if (!connector.capabilities.includes(cap) || !findCapability(cap)) {
      throw new ApiError(
        'capability_denied',
        'A requested capability is not released for this connector',
        `capabilities[${i}]`,
        'have the capability released',
      );
    }
  });
  const at = s.iso();
  const conn: Connection = {
    id: s.newId(),
    connectorId: b.connectorId,
    environment: b.environment,
    scopeLabel: b.scopeLabel,
    state: 'pending',
    capabilities: b.capabilities.map((cap) => {
      const def = findCapability(cap);
      return {
        capability: cap,
        critical: def?.critical ?? false,
        idempotencyRequired: def?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'wait_for_provisioning',
    createdAt: at,
    updatedAt: at,
  };
  const list = s.connections.get(c.tenant) ?? [];
  s.connections.set(c.tenant, list);
  list.push(conn);
  const changes = Object.fromEntries(Object.entries(conn).map(([k, v]) => [k, [null, v]])) as Record<
    string,
    [unknown, unknown]
  >;
  record(s, c.tenant, {
    event: 'create',
    itemType: 'Connection',
    itemId: conn.id,
    whodunnit: whodunnit(c),
    requestId: c.ctx.requestId,
    objectChanges: changes,
  });
  const view = { ...conn, capabilities: conn.capabilities.map((x) => ({ ...x })) };
  publish(s.stream, 'connection.created', {
    connectionId: conn.id,
    connectorId: conn.connectorId,
    environment: conn.environment,
    state: conn.state,
  });
  emit(s, c.tenant, 'connection.created', { connection: view });
  later(s, s.options.activationMs, () => activate(s, c.tenant, conn));
  return view;
}

/** ProvisionConnectionJob: pending -> active. */
function activate(s: State, tenant: string, conn: Connection): void {
  const before = { state: conn.state, nextStep: conn.nextStep, updatedAt: conn.updatedAt };
  conn.state = 'active';
  conn.nextStep = 'none';
  conn.updatedAt = s.iso();
  record(s, tenant, {
    event: 'update',
    itemType: 'Connection',
    itemId: conn.id,
    whodunnit: 'job:ProvisionConnectionJob',
    requestId: randomUUID(),
    objectChanges: {
      state: [before.state, conn.state],
      nextStep: [before.nextStep, conn.nextStep],
      updatedAt: [before.updatedAt, conn.updatedAt],
    },
  });
  publish(s.stream, 'connection.state_changed', {
    connectionId: conn.id,
    connectorId: conn.connectorId,
    environment: conn.environment,
    state: conn.state,
  });
  emit(s, tenant, 'connection.state_changed', { connection: { ...conn } });
}

export function createKey(s: State, c: Call) {
  return issueKey(keyRequestBody(c.body).operation, s.iso);
}

export function info(s: State, c: Call) {
  return {
    tenant: c.tenant,
    clientId: c.clientId,
    environment: 'sandbox',
    tokenExpiresAt: s.iso(c.tokenExpiresAt),
    rateLimit: { limit: s.options.rateLimit, periodSeconds: s.options.windowMs / 1000 },
  };
}
