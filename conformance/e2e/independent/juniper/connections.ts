// Catalog reads, capability decisions and connections. A connection starts in pending_review and is
// activated a moment later (a background job in the Rails app), announced on the stream and to webhooks.
// Booking a capability the connector does not offer (or one not in the catalog) is 409 capability_denied.

import { record } from './audit.ts';
import { tenantOf } from './auth.ts';
import {
  capabilities,
  capabilityEntry,
  connectors,
  findCapability,
  findConnector,
  newId,
  nowIso,
  onReplica,
  providers,
} from './catalog.ts';
import { sendOk } from './http-kit.ts';
import { runKeyed } from './idempotency.ts';
import { publish } from './stream.ts';
import { type Connection, type Ctx, HttpError, type State } from './types.ts';
import { environment, filter, text, textList } from './validate.ts';
import { dispatch } from './webhooks.ts';

const NEXT_STEP: Record<string, string> = {
  pending_review: 'await_review',
  active: 'start_using',
  paused: 'contact_support',
};

export function listProviders(ctx: Ctx) {
  const category = filter(ctx.url.searchParams, 'category');
  const list = providers.filter((p) => category === undefined || p.category === category);
  sendOk(ctx, { count: list.length, providers: list });
}

export function listConnectors(ctx: Ctx) {
  const q = ctx.url.searchParams;
  const capability = filter(q, 'capability');
  const providerId = filter(q, 'providerId');
  const category = filter(q, 'category');
  const list = connectors.filter(
    (c) =>
      (capability === undefined || c.capabilities.includes(capability)) &&
      (providerId === undefined || c.providerId === providerId) &&
      (category === undefined || c.category === category),
  );
  sendOk(ctx, { count: list.length, connectors: list });
}

export const listCapabilities = (ctx: Ctx) => sendOk(ctx, { count: capabilities.length, capabilities });

const notFound = (what: string) =>
  new HttpError(404, 'not_found', `No such ${what}.`, undefined, 'Compare identifier and tenant header.');

export function checkCapability(ctx: Ctx, body: Record<string, unknown>) {
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body, 'environment', 'sandbox');
  const connector = findConnector(connectorId);
  if (!connector) throw notFound('connector');
  const cap = findCapability(capability);
  const own = (ctx.state.connections.get(tenantOf(ctx)) ?? []).filter(
    (c) =>
      c.connectorId === connectorId && c.environment === env && c.capabilities.some((e) => e.capability === capability),
  );
  let allowed = false;
  let reason: string;
  if (!cap) reason = 'unknown_capability: the capability is not in the catalog';
  else if (!connector.capabilities.includes(capability))
    reason = 'not_offered: the connector does not offer this capability';
  else if (own.length > 0 && own.every((c) => c.state === 'paused'))
    reason = 'connection_paused: the connection is paused';
  else {
    allowed = true;
    reason = 'offered: the connector offers this capability';
  }
  const entry = capabilityEntry(capability);
  sendOk(ctx, {
    decision: {
      connectorId,
      capability,
      allowed,
      critical: entry.critical,
      idempotencyRequired: entry.idempotencyRequired,
      reason,
    },
    environment: env,
  });
}

export function listConnections(ctx: Ctx) {
  const tenant = tenantOf(ctx);
  const lag = ctx.state.options.replicaLagMs;
  const stored = (ctx.state.connections.get(tenant) ?? []).filter((c) => onReplica(c.createdAt, lag));
  const list = ctx.state.options.connectionsNewestFirst ? [...stored].reverse() : stored;
  sendOk(ctx, { tenant, count: list.length, connections: list.map(view) });
}

const view = ({ updatedAt: _, ...c }: Connection) => ({ ...c, capabilities: c.capabilities.map((e) => ({ ...e })) });

export function createConnection(ctx: Ctx, body: Record<string, unknown>) {
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body, 'environment');
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const caps = textList(body, 'capabilities', 1, 24);
  const tenant = tenantOf(ctx);
  runKeyed(ctx, body, {
    required: true,
    perform: () => {
      const connector = findConnector(connectorId);
      const refused = caps.find((c) => !connector?.capabilities.includes(c));
      if ((!connector || refused !== undefined) && ctx.state.options.auditRefusals) {
        const code = connector ? 'capability_denied' : 'not_found';
        const changes = { code, connectorId, environment: env, scopeLabel, capabilities: caps };
        record(ctx.state, ctx, tenant, 'connection.create_refused', { type: 'connection', id: '' }, changes);
      }
      if (!connector) throw notFound('connector');
      if (refused !== undefined) {
        throw new HttpError(
          409,
          'capability_denied',
          'A capability is not released for this connection.',
          `The connector ${connectorId} does not offer the requested capability.`,
          'Have the capability released.',
        );
      }
      const now = nowIso();
      const connection: Connection = {
        id: newId('con'),
        connectorId,
        environment: env,
        scopeLabel,
        state: 'pending_review',
        capabilities: caps.map(capabilityEntry),
        nextStep: NEXT_STEP.pending_review ?? '',
        createdAt: now,
        updatedAt: now,
      };
      const list = ctx.state.connections.get(tenant) ?? [];
      list.push(connection);
      ctx.state.connections.set(tenant, list);
      const snapshot = view(connection);
      record(
        ctx.state,
        ctx,
        tenant,
        'connection.created',
        { type: 'connection', id: connection.id },
        {
          connectorId,
          environment: env,
          scopeLabel,
          capabilities: caps,
          state: connection.state,
        },
      );
      afterCommit(ctx.state, () => {
        publish(ctx.state, 'connection.created', connection, now);
        dispatch(ctx.state, tenant, 'connection.created', { connection: snapshot });
      });
      scheduleActivation(ctx.state, tenant, connection);
      return snapshot;
    },
  });
}

function scheduleActivation(state: State, tenant: string, connection: Connection) {
  if (state.closed) return;
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    if (connection.state !== 'pending_review') return;
    const now = nowIso();
    connection.state = 'active';
    connection.nextStep = NEXT_STEP.active ?? '';
    connection.updatedAt = now;
    record(
      state,
      undefined,
      tenant,
      'connection.activated',
      { type: 'connection', id: connection.id },
      {
        state: { from: 'pending_review', to: 'active' },
      },
    );
    const snapshot = view(connection);
    afterCommit(state, () => {
      publish(state, 'connection.activated', { ...snapshot, updatedAt: now }, now);
      dispatch(state, tenant, 'connection.activated', { connection: snapshot });
    });
  }, state.options.activationDelayMs);
  state.timers.add(timer);
}

// after_commit hook: enqueue the announcement (stream, webhooks), run at once or by the job queue later.
function afterCommit(state: State, job: () => void) {
  const delay = state.options.jobDelayMs;
  if (delay === 0) return job();
  if (state.closed) return;
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    job();
  }, delay);
  state.timers.add(timer);
}
