// Connections of a tenant: GET /connections and the keyed POST /connections. A new connection is
// "pending" and turns "active" after activationMs (an observer job), each change on the stream,
// in the tenant's webhooks and in its audit trail.
import { record } from './audit.ts';
import type { IdempotencyStore } from './idempotency.ts';
import { dispatchEvent } from './queue.ts';
import { type ConnectionRow, later, nextId, publish, type State } from './state.ts';
import { ApiError, type Ctx, ok, stamp } from './support.ts';
import { asObject, environment, text, textList } from './validate.ts';

function present(c: ConnectionRow) {
  const { tenant: _tenant, ...rest } = c;
  return { ...rest, capabilities: c.capabilities.map((x) => ({ ...x })) };
}

export function listConnections(state: State, ctx: Ctx): void {
  const connections = state.connections.filter((c) => c.tenant === ctx.tenant).map(present);
  ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

export function createConnection(state: State, idem: IdempotencyStore, ctx: Ctx): void {
  const key = idem.requireKey(ctx);
  const body = asObject(ctx.body);
  // Validated in the contract's field order; unknown fields are ignored ($request->validated()).
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body, 'environment');
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const capabilities = textList(body, 'capabilities', 1, 24);
  const tenant = ctx.tenant ?? '';
  idem.handle(ctx, key, 'connections.store', body, () => {
    const connector = state.connectors.find((c) => c.id === connectorId);
    if (!connector) throw new ApiError('not_found', 'No query results for model [Connector].');
    const missing = capabilities.find((c) => !connector.capabilities.includes(c));
    if (missing !== undefined) {
      throw new ApiError('capability_denied', 'The capability is not released for this connection.', {
        detail: `capabilities: ${connector.id} does not offer one of the requested capabilities.`,
        hint: 'Have the capability released, or request only capabilities the connector lists.',
      });
    }
    const row: ConnectionRow = {
      id: nextId(state, 'con'),
      tenant,
      connectorId,
      environment: env,
      scopeLabel,
      state: 'pending',
      capabilities: capabilities.map((id) => {
        const cap = state.capabilities.find((c) => c.id === id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'await_activation',
      createdAt: stamp(),
    };
    state.connections.push(row);
    const snapshot = present(row);
    record(
      state,
      tenant,
      'connection.created',
      { type: 'connection', id: row.id },
      { clientId: ctx.clientId ?? '', requestId: ctx.requestId, key, url: ctx.url.pathname },
      { connector_id: connectorId, environment: env, scope_label: scopeLabel, capabilities },
    );
    publish(state, 'connection.created', { connection_id: row.id, state: row.state, occurred_at: row.createdAt });
    dispatchEvent(state, tenant, 'connection.created', { connection: snapshot });
    later(state, state.opts.activationMs, () => activate(state, row, ctx.clientId ?? ''));
    return snapshot;
  });
}

function activate(state: State, row: ConnectionRow, clientId: string): void {
  row.state = 'active';
  row.nextStep = 'none';
  const at = stamp();
  record(
    state,
    row.tenant,
    'connection.activated',
    { type: 'connection', id: row.id },
    { clientId, requestId: 'system', key: null, url: 'queue:observer' },
    { state: 'active' },
  );
  publish(state, 'connection.activated', { connection_id: row.id, state: row.state, occurred_at: at });
  dispatchEvent(state, row.tenant, 'connection.activated', { connection: present(row) });
}
