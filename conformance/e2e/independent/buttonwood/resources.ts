// The catalog and connection routes. The catalog is the team's seed data (an invented restaurant-tech network);
// a connection is created `pending` and a scheduled "provisioning actor" activates it shortly after, publishing
// both changes on the status stream, to webhooks and to the audit trail.
import { record } from './audit.ts';
import { bad, type Ctx, jsonBody, notFound, ok, Rejection, str } from './http.ts';
import { idempotent } from './idempotency.ts';
import { ENVIRONMENTS, instant, newId, type Rec, type Store } from './state.ts';
import { emit } from './webhooks.ts';

export const PROVIDERS = [
  { id: 'lightspeed', name: 'Lightspeed Restaurant', category: 'pos', summary: 'Point of sale for venues' },
  { id: 'adyen', name: 'Adyen', category: 'payments', summary: 'Card and terminal payments' },
  { id: 'opentable', name: 'OpenTable', category: 'reservations', summary: 'Table reservations' },
];
export const CAPABILITIES = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Write orders', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
];
export const CONNECTORS = [
  {
    id: 'lightspeed-k-series',
    providerId: 'lightspeed',
    name: 'K-Series',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'adyen-terminal',
    providerId: 'adyen',
    name: 'Terminal API',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
  },
  {
    id: 'opentable-guestcenter',
    providerId: 'opentable',
    name: 'GuestCenter',
    category: 'reservations',
    capabilities: ['reservations.read'],
  },
];

export function listProviders(ctx: Ctx): void {
  const c = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => c === null || p.category === c);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = (k: string) => ctx.query.get(k);
  const connectors = CONNECTORS.filter(
    (c) =>
      (q('capability') === null || c.capabilities.includes(q('capability') as string)) &&
      (q('providerId') === null || c.providerId === q('providerId')) &&
      (q('category') === null || c.category === q('category')),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

function environment(body: Rec, required: boolean): string {
  const env = body.environment ?? (required ? undefined : 'sandbox');
  if (env === undefined) throw bad('Missing required field environment');
  if (typeof env !== 'string' || !ENVIRONMENTS.includes(env))
    throw bad(`environment must be one of ${ENVIRONMENTS.join(', ')}`);
  return env;
}

export function checkCapability(ctx: Ctx): void {
  const body = jsonBody(ctx);
  const connectorId = str(body, 'connectorId', 2, 120) as string;
  const capability = str(body, 'capability', 2, 120) as string;
  const env = environment(body, false);
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw notFound(`Connector ${connectorId}`);
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const allowed = !!cap && connector.capabilities.includes(capability);
  const reason = !cap ? 'unknown_capability' : allowed ? 'offered_by_connector' : 'not_offered_by_connector';
  ok(ctx, {
    decision: {
      connectorId,
      capability,
      allowed,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  });
}

export function listConnections(store: Store, ctx: Ctx): void {
  const connections = store.connections.filter((c) => c.tenant === ctx.tenant).map(({ tenant: _t, ...c }) => c);
  ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

export function getConnection(store: Store, ctx: Ctx, id: string): void {
  const found = store.connections.find((c) => c.id === id && c.tenant === ctx.tenant);
  if (!found) throw notFound(`Connection ${id}`);
  const { tenant: _t, ...c } = found;
  ok(ctx, c);
}

export function createConnection(store: Store, ctx: Ctx): void {
  idempotent(store, ctx, (body) => {
    const connectorId = str(body, 'connectorId', 2, 120) as string;
    const env = environment(body, true);
    const scopeLabel = str(body, 'scopeLabel', 2, 120) as string;
    const caps = body.capabilities;
    if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) throw bad('capabilities must hold 1 to 24 items');
    for (const c of caps)
      if (typeof c !== 'string' || c.length < 2 || c.length > 120)
        throw bad('each capability must have length 2 to 120');
    const connector = CONNECTORS.find((c) => c.id === connectorId);
    if (!connector) throw notFound(`Connector ${connectorId}`);
    const denied = (caps as string[]).filter((c) => !connector.capabilities.includes(c));
    if (denied.length)
      throw new Rejection(409, 'capability_denied', 'Capability is not released for this connector', denied.join(', '));
    const tenant = ctx.tenant as string;
    const connection = {
      id: newId(),
      connectorId,
      environment: env,
      scopeLabel,
      state: 'pending',
      capabilities: (caps as string[]).map((id) => {
        const cap = CAPABILITIES.find((c) => c.id === id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'await_provider_approval',
      createdAt: instant(),
    };
    store.connections.push({ ...connection, tenant });
    record(store, tenant, 'connection.created', connection.id, ctx.requestId);
    store.publish(tenant, 'connection.created', {
      connectionId: connection.id,
      state: 'pending',
      at: connection.createdAt,
    });
    emit(store, tenant, 'connection.created', { connection });
    store.later(300, () => activate(store, tenant, connection.id));
    return connection;
  });
}

function activate(store: Store, tenant: string, id: string): void {
  const row = store.connections.find((c) => c.id === id);
  if (row?.state !== 'pending') return;
  row.state = 'active';
  row.nextStep = 'none';
  record(store, tenant, 'connection.activated', id, 'provisioning-actor');
  store.publish(tenant, 'connection.state_changed', { connectionId: id, state: 'active', at: instant() });
  const { tenant: _t, ...connection } = row;
  emit(store, tenant, 'connection.activated', { connection });
}
