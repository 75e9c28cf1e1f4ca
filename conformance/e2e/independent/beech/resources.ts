// Controllers of the interface's resources: catalog reads, capability checks, connections, idempotency keys.
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { capabilities, capabilityOf, connectorOf, connectors, providers } from './catalog.ts';
import { ApiError, type Ctx } from './http-kit.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { type Beech, type Connection, later, nextId, publish, stamp } from './state.ts';
import { environment, text, textList } from './validate.ts';
import { enqueueEvent } from './webhooks.ts';

export interface Result {
  status: number;
  data: unknown;
}

export function listProviders(ctx: Ctx): Record<string, unknown> {
  const category = ctx.url.searchParams.get('category');
  const list = providers.filter((p) => category === null || p.category === category);
  return { count: list.length, providers: list };
}

export function listConnectors(ctx: Ctx): Record<string, unknown> {
  const q = ctx.url.searchParams;
  const list = connectors.filter(
    (c) =>
      (q.get('category') === null || c.category === q.get('category')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('capability') === null || c.capabilities.includes(String(q.get('capability')))),
  );
  return { count: list.length, connectors: list };
}

export function listCapabilities(): Record<string, unknown> {
  return { count: capabilities.length, capabilities };
}

export function validateCheck(body: Record<string, unknown>): void {
  text(body, 'connectorId', 2, 120);
  text(body, 'capability', 2, 120);
  environment(body, 'environment', 'sandbox');
}

export function checkCapability(_s: Beech, _ctx: Ctx, body: Record<string, unknown>): Result {
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body, 'environment', 'sandbox');
  const connector = connectorOf(connectorId);
  if (connector === undefined) throw new ApiError('not_found', "Couldn't find Connector", `connectorId ${connectorId}`);
  const cap = capabilityOf(capability);
  const offered = connector.capabilities.includes(capability);
  const decision = {
    connectorId,
    capability,
    allowed: offered && cap !== undefined,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: offered ? `offered by ${connector.name} in ${env}` : `not offered by ${connector.name}`,
  };
  return { status: 200, data: { decision, environment: env } };
}

export function listConnections(s: Beech, ctx: Ctx): Record<string, unknown> {
  const list = s.connections.filter((c) => c.tenant === ctx.tenant).map(present);
  return { tenant: ctx.tenant, count: list.length, connections: list };
}

function present(c: Connection): Omit<Connection, 'tenant'> {
  const { tenant: _t, ...rest } = c;
  return rest;
}

export function validateCreate(body: Record<string, unknown>): void {
  text(body, 'connectorId', 2, 120);
  environment(body, 'environment');
  text(body, 'scopeLabel', 2, 120);
  textList(body, 'capabilities', 1, 24);
}

export function createConnection(s: Beech, ctx: Ctx, body: Record<string, unknown>): Result {
  const connectorId = text(body, 'connectorId', 2, 120);
  const connector = connectorOf(connectorId);
  if (connector === undefined) throw new ApiError('not_found', "Couldn't find Connector", `connectorId ${connectorId}`);
  const wanted = textList(body, 'capabilities', 1, 24);
  const missing = wanted.find((c) => !connector.capabilities.includes(c) || capabilityOf(c) === undefined);
  if (missing !== undefined) {
    throw new ApiError(
      'capability_denied',
      'Capability is not released for this connector',
      `${missing} is not offered by ${connector.id}`,
      'have the capability released',
    );
  }
  const at = stamp(s);
  const c: Connection = {
    id: nextId(s, 'connections'),
    connectorId,
    environment: environment(body, 'environment'),
    scopeLabel: text(body, 'scopeLabel', 2, 120),
    state: 'pending',
    capabilities: wanted.map((id) => {
      const cap = capabilityOf(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'await_provisioning',
    createdAt: at,
    created_at: at,
    updated_at: at,
    tenant: ctx.tenant ?? '-',
  };
  s.connections.push(c);
  record(s, ctx, 'connection.create', 'Connection', c.id, {
    connectorId,
    environment: c.environment,
    scopeLabel: c.scopeLabel,
  });
  announce(s, c, 'connection.created');
  later(s, s.options.activationMs, () => {
    c.state = 'active';
    c.nextStep = 'none';
    c.updated_at = stamp(s);
    announce(s, c, 'connection.activated');
  });
  return { status: 200, data: present({ ...c }) };
}

function announce(s: Beech, c: Connection, name: string): void {
  // The public stream names the connection and its state, never the tenant or its labels.
  publish(s, name, { connectionId: c.id, state: c.state, at: stamp(s) });
  enqueueEvent(s, c.tenant, name, { connection: present(c) });
}

export function validateKey(body: Record<string, unknown>): void {
  text(body, 'operation', 2, 80);
}

export function issueKey(s: Beech, _ctx: Ctx, body: Record<string, unknown>): Result {
  const operation = text(body, 'operation', 2, 80);
  const idempotencyKey = `${operation.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 60)}:${randomBytes(16).toString('hex')}`;
  return {
    status: 200,
    data: { idempotencyKey, operation, expiresAt: stamp(s, Date.now() + KEY_TTL_MS) },
  };
}

/** db/seeds.rb: a demo venue per tenant, already active, so a new sandbox is not empty. */
export function seedDemo(s: Beech, tenants: string[]): void {
  const at = stamp(s);
  for (const tenant of tenants) {
    s.connections.push({
      id: nextId(s, 'connections'),
      connectorId: 'tablebook-sync',
      environment: 'sandbox',
      scopeLabel: 'Demo Bistro (seed)',
      state: 'active',
      capabilities: [{ capability: 'reservations.read', critical: false, idempotencyRequired: false }],
      nextStep: 'none',
      createdAt: at,
      created_at: at,
      updated_at: at,
      tenant,
    });
  }
}
