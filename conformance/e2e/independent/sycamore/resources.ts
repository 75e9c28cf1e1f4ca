// Catalog reads, the capability check, connections (pending -> active) and idempotency key issuing.

import { CAPABILITIES, CONNECTORS, PROVIDERS } from './catalog.ts';
import { audit, publish } from './events.ts';
import { ApiError, type Ctx, ok, readJson } from './http.ts';
import { type Connection, later, type State } from './state.ts';
import { iso, newId } from './util.ts';
import { environment, idempotent, KEY_TTL_MS, onlyFields, readKey, text, textList } from './validate.ts';
import { notify } from './webhooks.ts';

const capability = (id: string) => CAPABILITIES.find((c) => c.id === id);

export function providers(ctx: Ctx): void {
  const category = ctx.url.searchParams.get('category');
  const list = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: list.length, providers: list });
}

export function connectors(ctx: Ctx): void {
  const q = ctx.url.searchParams;
  const list = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: list.length, connectors: list });
}

export function capabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

/** POST /capabilities: allowed when the connector offers the capability; an unknown connector is 404. */
export async function checkCapability(ctx: Ctx): Promise<void> {
  readKey(ctx, false);
  const body = await readJson(ctx);
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const cap = text(body, 'capability', 2, 120) ?? '';
  const env = environment(body, 'environment', false) ?? 'sandbox';
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector)
    throw new ApiError('not_found', `connectorId: no connector ${connectorId}`, 'GET /connectors lists them.');
  const known = capability(cap);
  const allowed = connector.capabilities.includes(cap);
  const reason = allowed ? 'offered_by_connector' : known ? 'not_offered_by_connector' : 'unknown_capability';
  ok(ctx, {
    decision: {
      connectorId,
      capability: cap,
      allowed,
      critical: known?.critical ?? false,
      idempotencyRequired: known?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  });
}

export function listConnections(state: State, ctx: Ctx): void {
  const tenant = ctx.tenant ?? '';
  const list = state.connections.get(tenant) ?? [];
  ok(ctx, { tenant, count: list.length, connections: list });
}

/** POST /connections: key required; unknown connector 404; a capability the connector lacks 409 capability_denied. */
export async function createConnection(state: State, ctx: Ctx): Promise<void> {
  readKey(ctx, true);
  const body = await readJson(ctx);
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body, 'environment', true) ?? 'sandbox';
  const scopeLabel = text(body, 'scopeLabel', 2, 120) ?? '';
  const caps = textList(body, 'capabilities', 1, 24);
  const tenant = ctx.tenant ?? '';
  idempotent(state, ctx, 'connection.create', body, () => {
    const connector = CONNECTORS.find((c) => c.id === connectorId);
    if (!connector)
      throw new ApiError('not_found', `connectorId: no connector ${connectorId}`, 'GET /connectors lists them.');
    const missing = caps.find((c) => !connector.capabilities.includes(c));
    if (missing !== undefined) {
      throw new ApiError(
        'capability_denied',
        `capability ${missing} is not booked for ${connectorId}`,
        'Have the capability released.',
      );
    }
    const now = iso();
    const conn: Connection = {
      id: newId('con'),
      connectorId,
      environment: env,
      scopeLabel,
      state: 'pending',
      capabilities: caps.map((c) => ({
        capability: c,
        critical: capability(c)?.critical ?? false,
        idempotencyRequired: capability(c)?.idempotencyRequired ?? false,
      })),
      nextStep: 'await_activation',
      createdAt: now,
      updated_at: now,
    };
    const list = state.connections.get(tenant) ?? [];
    list.push(conn);
    state.connections.set(tenant, list);
    audit(state, tenant, ctx.clientId ?? '', 'connection.created', conn.id);
    const summary = { connection_id: conn.id, connector_id: connectorId, environment: env, state: conn.state };
    publish(state, 'connection.created', summary);
    notify(state, tenant, 'connection.created', { ...conn });
    later(state, state.opts.activationMs, () => activate(state, tenant, conn, ctx.clientId ?? ''));
    return { ...conn };
  });
}

function activate(state: State, tenant: string, conn: Connection, clientId: string): void {
  conn.state = 'active';
  conn.nextStep = 'none';
  conn.updated_at = iso();
  audit(state, tenant, clientId, 'connection.activated', conn.id);
  publish(state, 'connection.activated', {
    connection_id: conn.id,
    connector_id: conn.connectorId,
    environment: conn.environment,
    state: 'active',
  });
  notify(state, tenant, 'connection.activated', { ...conn });
}

/** POST /idempotency-keys: issues `idk_<ULID>` valid 48 h; an Idempotency-Key sent with it is honoured. */
export async function issueKey(state: State, ctx: Ctx): Promise<void> {
  readKey(ctx, false);
  const body = await readJson(ctx);
  const operation = text(body, 'operation', 2, 80) ?? '';
  idempotent(state, ctx, 'idempotency-key.issue', body, () => {
    const key = newId('idk');
    const expiresAt = Date.now() + KEY_TTL_MS;
    state.issued.set(key, { operation, expiresAt });
    return { idempotencyKey: key, operation, expiresAt: iso(expiresAt) };
  });
}
