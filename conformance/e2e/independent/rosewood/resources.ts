// Catalog and connections: the controllers of a Vapor `RouteCollection`, Fluent models kept in the store.
import { record } from './audit.ts';
import { Abort, type Ctx, isoDate, jsonBody, ok, type Rec, uuid } from './http.ts';
import { idempotent } from './limits.ts';
import { CAPABILITIES, CONNECTORS, PROVIDERS, type Store } from './state.ts';
import { environment, string, stringArray, validate } from './validation.ts';
import { notifyWebhooks } from './webhooks.ts';

export function listProviders(ctx: Ctx): void {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = (name: string) => ctx.query.get(name);
  const connectors = CONNECTORS.filter(
    (c) =>
      (q('capability') === null || c.capabilities.includes(q('capability'))) &&
      (q('providerId') === null || c.providerId === q('providerId')) &&
      (q('category') === null || c.category === q('category')),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

function connectorOr404(id: string): Rec {
  const connector = CONNECTORS.find((c) => c.id === id);
  if (!connector) throw new Abort(404, `Connector ${id} was not found.`, { hint: 'List connectors first.' });
  return connector;
}

export function checkCapability(ctx: Ctx): void {
  const body = jsonBody(ctx);
  validate(body, [string('connectorId', 2, 120), string('capability', 2, 120), environment('environment', false)]);
  const connector = connectorOr404(body.connectorId);
  const cap = CAPABILITIES.find((c) => c.id === body.capability);
  const offered = connector.capabilities.includes(body.capability);
  const decision = {
    connectorId: connector.id,
    capability: body.capability,
    allowed: Boolean(cap && offered),
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: !cap ? 'unknownCapability' : offered ? 'offeredByConnector' : 'notOfferedByConnector',
  };
  ok(ctx, { decision, environment: body.environment ?? 'sandbox' });
}

export function listConnections(ctx: Ctx, store: Store): void {
  const connections = store.tenantList(store.connections, ctx.tenant ?? '');
  ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

/** Practice environments go live at once; pilot and production wait for a review (camelCase Swift enum cases). */
function initialState(env: string): { state: string; nextStep: string } {
  return env === 'pilot' || env === 'production'
    ? { state: 'pendingReview', nextStep: 'Our onboarding team reviews the connection within one business day.' }
    : { state: 'active', nextStep: 'Send a test order to verify the connection.' };
}

export async function createConnection(ctx: Ctx, store: Store): Promise<void> {
  await idempotent(ctx, store, () => {
    const body = jsonBody(ctx);
    validate(body, [
      string('connectorId', 2, 120),
      environment('environment'),
      string('scopeLabel', 2, 120),
      stringArray('capabilities', 1, 24, 2, 120),
    ]);
    const connector = connectorOr404(body.connectorId);
    const requested = body.capabilities as string[];
    const denied = requested.filter((c) => !connector.capabilities.includes(c));
    if (denied.length > 0) {
      throw new Abort(409, `Capability ${denied.join(', ')} is not released for connector ${connector.id}.`, {
        code: 'capability_denied',
        hint: 'Have the capability released, or pick one the connector lists.',
      });
    }
    const connection = {
      id: uuid(),
      connectorId: connector.id,
      environment: body.environment,
      scopeLabel: body.scopeLabel,
      ...initialState(body.environment),
      capabilities: [...new Set(requested)].map((id) => {
        const cap = CAPABILITIES.find((c) => c.id === id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      createdAt: isoDate(),
    };
    store.tenantList(store.connections, ctx.tenant ?? '').push(connection);
    record(store, ctx, 'connection.create', 'connection', connection.id, {
      connectorId: connection.connectorId,
      environment: connection.environment,
      state: connection.state,
    });
    const { scopeLabel: _label, ...publicView } = connection;
    store.publish(ctx.tenant ?? '', 'connection.created', connection);
    // The public stream names no tenant and none of the names the tenant gave (the scope label).
    store.publish('', 'connection.created', publicView);
    notifyWebhooks(store, ctx.tenant ?? '', 'connection.created', { connection });
    return connection;
  });
}
