// The catalog, capability checks, connections, idempotency keys and the audit log (the team's ViewSets).
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, ENVIRONMENTS, PROVIDERS } from './catalog.ts';
import { ApiError, type Ctx, ok, paginate, str } from './http-util.ts';
import type { Connection, RowanState } from './state.ts';
import { IDEMPOTENCY_TTL_MS, newId } from './state.ts';
import { deliverEvent } from './webhooks.ts';

function environmentOf(body: Record<string, unknown>, fallback?: string): string {
  // Only an absent field takes the default: null is refused, as a DRF ChoiceField without allow_null does.
  const v = body.environment === undefined ? fallback : body.environment;
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw new ApiError('invalid_request', `environment: must be one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return v;
}

export function listProviders(ctx: Ctx, pageSize: number): void {
  const category = ctx.query.get('category');
  const all = PROVIDERS.filter((p) => category === null || p.category === category);
  const p = paginate(ctx, all, pageSize);
  ok(ctx, { count: p.count, next: p.next, previous: p.previous, providers: p.page });
}

export function listConnectors(ctx: Ctx, pageSize: number): void {
  const q = (k: string): string | null => ctx.query.get(k);
  const all = CONNECTORS.filter(
    (c) =>
      (q('capability') === null || c.capabilities.includes(q('capability') ?? '')) &&
      (q('providerId') === null || c.providerId === q('providerId')) &&
      (q('category') === null || c.category === q('category')),
  );
  const p = paginate(ctx, all, pageSize);
  ok(ctx, { count: p.count, next: p.next, previous: p.previous, connectors: p.page });
}

export function listCapabilities(ctx: Ctx, pageSize: number): void {
  const p = paginate(ctx, CAPABILITIES, pageSize);
  ok(ctx, { count: p.count, next: p.next, previous: p.previous, capabilities: p.page });
}

export function checkCapability(body: Record<string, unknown>): { status: number; data: unknown } {
  const connectorId = str(body, 'connectorId', 2, 120);
  const capability = str(body, 'capability', 2, 120);
  const environment = environmentOf(body, 'sandbox');
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'No connector with this id.');
  const cap = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !cap ? 'unknown_capability' : offered ? 'offered_by_connector' : 'not_offered_by_connector';
  return {
    status: 200,
    data: {
      decision: {
        connectorId,
        capability,
        allowed: Boolean(cap) && offered,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
        reason,
      },
      environment,
    },
  };
}

export function listConnections(ctx: Ctx, state: RowanState, tenant: string): void {
  // Newest first, as the team's default ordering ['-created_at'].
  const all = [...state.connectionsOf(tenant)].reverse();
  const p = paginate(ctx, all, state.options.pageSize);
  ok(ctx, { tenant, count: p.count, next: p.next, previous: p.previous, connections: p.page });
}

export function createConnection(
  ctx: Ctx,
  state: RowanState,
  tenant: string,
  body: Record<string, unknown>,
): { status: number; data: unknown } {
  const connectorId = str(body, 'connectorId', 2, 120);
  const environment = environmentOf(body);
  const scopeLabel = str(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', 'capabilities: a list of 1 to 24 items is required.');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw new ApiError('invalid_request', 'capabilities: each item must be a string of length 2 to 120.');
    }
  }
  const connector = connectorById(connectorId);
  if (!connector) throw new ApiError('not_found', 'No connector with this id.');
  const names = [...new Set(caps as string[])];
  for (const c of names) {
    if (!capabilityById(c)) throw new ApiError('invalid_request', `capabilities: unknown capability ${c}.`);
  }
  for (const c of names) {
    if (!connector.capabilities.includes(c)) {
      throw new ApiError('capability_denied', `Capability ${c} is not released for this connector.`);
    }
  }
  const now = new Date().toISOString();
  const conn: Connection = {
    id: state.connectionId(connectorId),
    connectorId,
    environment,
    scopeLabel,
    state: 'new',
    capabilities: names.map((c) => {
      const cap = capabilityById(c);
      return {
        capability: c,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'await_activation',
    createdAt: now,
    updatedAt: now,
  };
  state.connectionsOf(tenant).push(conn);
  state.connectionTenant.set(conn.id, tenant);
  state.record(tenant, {
    action: 'connection.created',
    resourceType: 'connection',
    resourceId: conn.id,
    requestId: ctx.requestId,
    actor: 'client',
  });
  announce(state, tenant, 'connection.created', conn);
  state.later(state.options.activationMs, () => {
    conn.state = 'live';
    conn.nextStep = 'none';
    conn.updatedAt = new Date().toISOString();
    state.record(tenant, {
      action: 'connection.live',
      resourceType: 'connection',
      resourceId: conn.id,
      requestId: ctx.requestId,
      actor: 'system',
    });
    announce(state, tenant, 'connection.live', conn);
  });
  return { status: 200, data: { ...conn, capabilities: conn.capabilities.map((c) => ({ ...c })) } };
}

/** A change goes to the tenant's stream (full record), the public one (no tenant data) and its webhooks. */
function announce(state: RowanState, tenant: string, kind: string, conn: Connection): void {
  const snapshot = { ...conn, capabilities: conn.capabilities.map((c) => ({ ...c })) };
  state.emit(`tenant:${tenant}`, kind, { connection: snapshot });
  state.emit('public', 'status', { kind: 'service.status', status: 'operational' });
  deliverEvent(state, tenant, kind, { connection: snapshot });
}

export function createIdempotencyKey(body: Record<string, unknown>): { status: number; data: unknown } {
  const operation = str(body, 'operation', 2, 80);
  const key = `idk:${newId('k').slice(2)}`;
  return {
    status: 200,
    data: { idempotencyKey: key, operation, expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS).toISOString() },
  };
}
// The tenant's audit log: newest first, DRF page numbers (`?page=`, `?limit=` as page size), and a proof:
// HMAC-SHA256 over the page's entry ids keyed by a server-side key named by `kid` (verifiable by support).

export function listAudit(ctx: Ctx, state: RowanState, tenant: string): void {
  const rawLimit = ctx.query.get('limit') ?? '50';
  if (!/^[0-9]{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 500) {
    throw new ApiError('invalid_request', 'limit: an integer from 1 to 500.');
  }
  const all = [...(state.audit.get(tenant) ?? [])].reverse();
  const p = paginate(ctx, all, Number(rawLimit));
  const proof = state.auditProof(p.page.map((e) => e.id));
  ok(ctx, { tenant, count: p.count, next: p.next, previous: p.previous, results: p.page, proof });
}
