// The controllers of the contract's endpoints (catalog, capability checks, connections, keys).
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import type { Principal } from './auth.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { emitWebhookEvent } from './deliver.ts';
import { ApiError, type Ctx, instant, notFound, ok } from './http-kit.ts';
import { KEY_TTL_MS, once } from './idempotency.ts';
import { type Connection, later, nextId, type State } from './store.ts';
import { publishStatus } from './stream.ts';
import { environment, text, textList } from './validate.ts';

export type Body = Record<string, unknown>;

export function listProviders(ctx: Ctx): void {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = ctx.query;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export function checkCapability(state: State, ctx: Ctx, body: Body): void {
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const capability = text(body, 'capability', 2, 120) ?? '';
  const env = environment(body, false) ?? 'sandbox';
  const connector = connectorById(connectorId);
  if (!connector) throw notFound('Connector', connectorId);
  const cap = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const blocked = state.config.productionForbidden && env === 'production';
  const reason = blocked
    ? 'PRODUCTION_NOT_RELEASED: a sandbox access decides nothing for production'
    : !cap
      ? `UNKNOWN_CAPABILITY: '${capability}' is not in the capability catalog`
      : offered
        ? `OFFERED: connector ${connector.id} offers ${capability} in ${env}`
        : `NOT_OFFERED: connector ${connector.id} does not offer ${capability}`;
  const decision = {
    connectorId,
    capability,
    allowed: Boolean(cap) && offered && !blocked,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
  ok(ctx, { decision, environment: env });
}

export function listConnections(state: State, ctx: Ctx, who: Principal): void {
  const connections = state.connections.filter((c) => c.tenant === who.tenant).map(connectionView);
  ok(ctx, { tenant: who.tenant, count: connections.length, connections });
}

export function connectionView(c: Connection): Record<string, unknown> {
  const { tenant: _t, ...rest } = c;
  return rest;
}

export function createConnection(state: State, ctx: Ctx, who: Principal, key: string | undefined, body: Body): void {
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body, true) ?? 'sandbox';
  const scopeLabel = text(body, 'scopeLabel', 2, 120) ?? '';
  const listed = textList(body, 'capabilities', 1, 24, 2, 120);
  // LARCH_CAPABILITY_SET=sorted (by hand): a TreeSet, so the set comes back in natural order.
  const set = process.env.LARCH_CAPABILITY_SET === 'sorted' ? [...new Set(listed)].sort() : [...new Set(listed)];
  const capabilities = state.config.capabilitySet ? set : listed;
  const input = { connectorId, environment: env, scopeLabel, capabilities };
  const result = once(state, ctx, who, key, input, () => {
    if (state.config.productionForbidden && env === 'production' && who.environment !== 'production') {
      throw new ApiError(
        'forbidden',
        'Environment not released',
        'A sandbox access cannot create production connections.',
        'Use a production access for production connections.',
      );
    }
    const connector = connectorById(connectorId);
    if (!connector) throw notFound('Connector', connectorId);
    const refused = capabilities.find((c) => !connector.capabilities.includes(c));
    if (refused !== undefined) {
      throw new ApiError(
        'capability_denied',
        'Capability not released',
        `Capability '${refused.slice(0, 120)}' is not released for connector ${connector.id}.`,
        'Have the capability released, or choose one the connector lists.',
      );
    }
    const now = instant();
    const c: Connection = {
      id: nextId(),
      tenant: who.tenant,
      connectorId,
      environment: env,
      scopeLabel,
      state: 'PENDING',
      capabilities: capabilities.map((id) => {
        const cap = capabilityById(id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'AWAIT_ACTIVATION',
      createdAt: now,
      updatedAt: now,
    };
    state.connections.push(c);
    record(state, who.tenant, 'CONNECTION_CREATED', 'CONNECTION', c.id, { type: 'CLIENT', id: who.clientId }, ctx, {
      connectorId,
      environment: env,
      scopeLabel,
    });
    publishStatus(state, 'CONNECTION_CREATED', { connectionId: c.id, state: c.state });
    emitWebhookEvent(state, who.tenant, 'CONNECTION_CREATED', { connection: connectionView(c) });
    later(state, state.config.activationMs, () => activate(state, c));
    return connectionView(c);
  });
  // A replay answers the connection as it was created, not its later state (the stored response).
  ok(ctx, result.data, result.replayed ? { replayed: true } : {});
}

function activate(state: State, c: Connection): void {
  c.state = 'ACTIVE';
  c.nextStep = 'NONE';
  c.updatedAt = instant();
  record(state, c.tenant, 'CONNECTION_ACTIVATED', 'CONNECTION', c.id, { type: 'SYSTEM', id: 'provisioning' }, null, {
    state: 'ACTIVE',
  });
  publishStatus(state, 'CONNECTION_STATE_CHANGED', { connectionId: c.id, state: c.state });
  emitWebhookEvent(state, c.tenant, 'CONNECTION_STATE_CHANGED', { connection: connectionView(c) });
}

export function issueKey(state: State, ctx: Ctx, who: Principal, key: string | undefined, body: Body): void {
  const operation = text(body, 'operation', 2, 80) ?? '';
  const result = once(state, ctx, who, key, { operation }, () => ({
    idempotencyKey: `LRK:${nextId()}:${randomBytes(6).toString('hex')}`,
    operation,
    expiresAt: instant(Date.now() + KEY_TTL_MS),
  }));
  ok(ctx, result.data, result.replayed ? { replayed: true } : {});
}
