// The catalog and the tenant's connections. A new connection starts `provisioning` and goes `live` a
// moment later (the provider's confirmation, simulated); both changes go to the stream and to webhooks.
import { record } from './audit.ts';
import { ApiError, type Ctx, jsonBody } from './http.ts';
import { withKey } from './idempotency.ts';
import { enqueue } from './minion.ts';
import { bodies } from './openapi-schemas.ts';
import { capabilities, connectors, nextId, PREFIX, providers, type Rec, type Store } from './state.ts';
import { publish } from './stream.ts';
import { validBody } from './validate.ts';

/** How long the simulated provider takes to confirm a connection. */
const CONFIRM_MS = 150;

export function listProviders(ctx: Ctx): Rec {
  const category = ctx.query.get('category');
  const list = providers.filter((p) => category === null || p.category === category);
  return { count: list.length, providers: list };
}

export function listConnectors(ctx: Ctx): Rec {
  const q = (n: string) => ctx.query.get(n);
  const list = connectors.filter(
    (c) =>
      (q('capability') === null || c.capabilities.includes(q('capability'))) &&
      (q('providerId') === null || c.providerId === q('providerId')) &&
      (q('category') === null || c.category === q('category')),
  );
  return { count: list.length, connectors: list };
}

export function listCapabilities(): Rec {
  return { count: capabilities.length, capabilities };
}

export function checkCapability(ctx: Ctx): Rec {
  const body = validBody(bodies.CapabilityCheck ?? {}, jsonBody(ctx));
  const environment = body.environment ?? 'sandbox';
  const connector = connectors.find((c) => c.id === body.connectorId);
  if (!connector)
    throw new ApiError(
      'not_found',
      'No such connector.',
      `/body/connectorId: ${body.connectorId} is not in the catalog.`,
    );
  const cap = capabilities.find((c) => c.id === body.capability);
  const allowed = Boolean(cap) && connector.capabilities.includes(body.capability);
  const reason = !cap ? 'unknown_capability' : allowed ? 'offered_by_connector' : 'not_offered_by_connector';
  const decision = {
    connectorId: connector.id,
    capability: body.capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
  return { decision, environment };
}

export function listConnections(store: Store, ctx: Ctx): Rec {
  const list = store.connections.filter((c) => c.tenant === ctx.tenant).map(({ tenant: _t, ...c }) => c);
  return { tenant: ctx.tenant, count: list.length, connections: list };
}

export function getConnection(store: Store, ctx: Ctx): Rec {
  const found = store.connections.find((c) => c.id === ctx.params.connectionId && c.tenant === ctx.tenant);
  if (!found) throw new ApiError('not_found', 'No such connection.');
  const { tenant: _t, ...connection } = found;
  return connection;
}

export function createConnection(store: Store, ctx: Ctx): void {
  withKey(store, ctx, () => {
    const body = validBody(bodies.ConnectionCreate ?? {}, jsonBody(ctx));
    const connector = connectors.find((c) => c.id === body.connectorId);
    if (!connector)
      throw new ApiError(
        'not_found',
        'No such connector.',
        `/body/connectorId: ${body.connectorId} is not in the catalog.`,
      );
    const wanted = [...new Set(body.capabilities as string[])];
    const missing = wanted.filter((c) => !connector.capabilities.includes(c));
    if (missing.length > 0) {
      throw new ApiError(
        'capability_denied',
        'Capability not released for this connection.',
        `Not offered by ${connector.id}: ${missing.join(', ')}.`,
      );
    }
    const tenant = ctx.tenant ?? '';
    const row: Rec = {
      id: String(nextId(store, 'connections')),
      connectorId: connector.id,
      environment: body.environment,
      scopeLabel: body.scopeLabel,
      state: 'provisioning',
      capabilities: wanted.map((id) => {
        const cap = capabilities.find((c) => c.id === id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'Wait for the provider to confirm; the connection goes live by itself.',
      createdAt: new Date().toISOString(),
    };
    store.connections.push({ ...row, tenant });
    record(store, ctx, 'connection.create', `${PREFIX}/connections/${row.id}`);
    publish(store, tenant, 'connection.created', row);
    enqueue(store, tenant, 'connection.created', row);
    const timer = setTimeout(() => {
      store.timers.delete(timer);
      const stored = store.connections.find((c) => c.id === row.id);
      if (!stored || store.closed) return;
      stored.state = 'live';
      stored.nextStep = 'Ready: use the booked capabilities.';
      const { tenant: _t, ...live } = stored;
      publish(store, tenant, 'connection.live', live);
      enqueue(store, tenant, 'connection.live', live);
    }, CONFIRM_MS);
    store.timers.add(timer);
    return row;
  });
}
