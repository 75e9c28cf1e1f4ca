// Catalog and connections handlers (the team's `routes::catalog` and `routes::connections` modules).
import { randomUUID } from 'node:crypto';
import type { AuditLog } from './audit.ts';
import { ApiError, type Ctx, denyUnknown, now, ok, type Rec, readJson, str } from './http.ts';
import { idempotent, requireKey } from './idempotency.ts';
import { CAPABILITIES, CLOSED_ENVIRONMENTS, CONNECTORS, ENVIRONMENTS, PROVIDERS, type Store } from './state.ts';
import type { Hub } from './stream.ts';
import type { Webhooks } from './webhooks.ts';

function byQuery(rows: Rec[], ctx: Ctx, fields: Record<string, (r: Rec, v: string) => boolean>): Rec[] {
  return Object.entries(fields).reduce((acc, [q, test]) => {
    const v = ctx.url.searchParams.get(q);
    return v === null ? acc : acc.filter((r) => test(r, v));
  }, rows);
}

export function listProviders(ctx: Ctx): void {
  const providers = byQuery(PROVIDERS, ctx, { category: (r, v) => r.category === v });
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const connectors = byQuery(CONNECTORS, ctx, {
    capability: (r, v) => r.capabilities.includes(v),
    providerId: (r, v) => r.providerId === v,
    category: (r, v) => r.category === v,
  });
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

function environment(value: unknown, fallback?: string): string {
  const env = value === undefined ? fallback : value;
  if (typeof env !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(env)) {
    throw new ApiError('invalid_request', 'Field environment is not a known environment', ENVIRONMENTS.join(', '));
  }
  return env;
}

export async function checkCapability(ctx: Ctx): Promise<void> {
  const body = await readJson(ctx);
  denyUnknown(body, ['connectorId', 'capability', 'environment']);
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const capability = str(body, 'capability', 2, 120) ?? '';
  const env = environment(body.environment, 'sandbox');
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError('not_found', 'No connector with this id');
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const offered = Boolean(cap) && connector.capabilities.includes(capability);
  const allowed = offered && !CLOSED_ENVIRONMENTS.has(env);
  const reason = !cap
    ? 'unknown_capability'
    : !offered
      ? 'not_offered_by_connector'
      : allowed
        ? 'offered_by_connector'
        : 'environment_closed';
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

export function listConnections(ctx: Ctx, store: Store, tenant: string): void {
  const connections = store.connections.get(tenant) ?? [];
  ok(ctx, { tenant, count: connections.length, connections });
}

export interface Deps {
  store: Store;
  hub: Hub;
  audit: AuditLog;
  webhooks: Webhooks;
}

export async function createConnection(ctx: Ctx, deps: Deps, tenant: string, clientId: string): Promise<void> {
  const key = requireKey(ctx);
  const body = await readJson(ctx);
  denyUnknown(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body.environment);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', 'Field capabilities must hold 1 to 24 entries');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw new ApiError('invalid_request', 'Each capability must be a string of 2 to 120 characters');
    }
  }
  idempotent(ctx, deps.store, tenant, key, body, () => {
    const connector = CONNECTORS.find((c) => c.id === connectorId);
    if (!connector) throw new ApiError('not_found', 'No connector with this id');
    const rows = (caps as string[]).map((id) => {
      const cap = CAPABILITIES.find((c) => c.id === id);
      if (!cap) throw new ApiError('invalid_request', `Unknown capability ${id}`);
      if (!connector.capabilities.includes(id)) {
        throw new ApiError('capability_denied', `Capability ${id} is not released for this connector`);
      }
      return { capability: id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
    });
    const conn: Rec = {
      id: randomUUID(),
      connectorId,
      environment: env,
      scopeLabel,
      state: env === 'production' ? 'pending_review' : 'provisioning',
      capabilities: rows,
      nextStep: env === 'production' ? 'await_compliance_review' : 'complete_provider_onboarding',
      createdAt: now(),
    };
    deps.store.connections.set(tenant, [...(deps.store.connections.get(tenant) ?? []), conn]);
    deps.audit.record(tenant, clientId, 'connection.created', 'connection', conn.id);
    deps.hub.publish(tenant, 'connection.created', { connection: conn });
    deps.webhooks.emit(tenant, 'connection.created', { connection: conn });
    if (env !== 'production') setTimeout(() => activate(deps, tenant, conn), 250).unref();
    return conn;
  });
}

/** The provisioning job finishes: the connection turns active (a stream message, an audit entry). */
function activate(deps: Deps, tenant: string, conn: Rec): void {
  conn.state = 'active';
  conn.nextStep = 'none';
  deps.audit.record(tenant, 'system', 'connection.activated', 'connection', conn.id);
  deps.hub.publish(tenant, 'connection.state_changed', { connectionId: conn.id, state: 'active' });
  deps.webhooks.emit(tenant, 'connection.state_changed', { connectionId: conn.id, state: 'active' });
}
