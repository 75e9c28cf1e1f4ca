// Connections: created `requested`, turned `active` after a short delay, `paused` and resumed on request.
// Every change goes to the audit chain, the public stream and the tenant's webhooks.
import { record } from './audit.ts';
import { decide, findCapability, findConnector } from './catalog.ts';
import { ApiError, type Call, ok } from './http.ts';
import { type Connection, later, type State } from './state.ts';
import { publishStream } from './stream.ts';
import { environment, paginate, text, textList } from './validate.ts';
import { deliverEvent } from './webhooks.ts';

const NEXT_STEP: Record<string, string> = {
  requested: 'await_activation',
  active: 'none',
  paused: 'resume_connection',
};

export function connectionView(c: Connection): Record<string, unknown> {
  const { tenant: _t, ...rest } = c;
  return rest;
}

/** A change of a connection: audit entry, stream message, webhook deliveries. */
function changed(state: State, c: Connection, event: string, action: string, actor: string, requestId: string | null) {
  record(state, c.tenant, action, ['connection', c.id], actor, requestId);
  publishStream(state, event, { connection_id: c.id, state: c.state, environment: c.environment, at: c.updated_at });
  deliverEvent(state, c.tenant, event, { connection: connectionView(c) });
}

export function listConnections(state: State, call: Call): void {
  const mine = state.connections.filter((c) => c.tenant === call.tenant);
  const page = paginate(mine, call.url, call.origin, call.headers);
  ok(call, { tenant: call.tenant, count: page.items.length, connections: page.items.map(connectionView) });
}

/** Validates a creation body (before the idempotency lookup: a malformed body is never stored). */
export function creationParams(body: Record<string, unknown>) {
  return {
    connectorId: text(body, 'connectorId', 2, 120),
    environment: environment(body, 'environment'),
    scopeLabel: text(body, 'scopeLabel', 2, 120),
    capabilities: textList(body, 'capabilities', [1, 24], [2, 120]),
  };
}

export function createConnection(state: State, call: Call, p: ReturnType<typeof creationParams>) {
  const connector = findConnector(p.connectorId);
  if (!connector) {
    throw new ApiError('not_found', 'Connector not found', 'connectorId names no connector of the catalog');
  }
  const denied = p.capabilities.filter((cap) => !decide(connector, cap).allowed);
  if (denied.length > 0) {
    throw new ApiError(
      'capability_denied',
      'Capability is not released for this connection',
      'the connector does not offer every requested capability',
      'have the capability released',
    );
  }
  const at = new Date().toISOString();
  const c: Connection = {
    id: String(++state.seq.connection),
    tenant: call.tenant ?? '',
    connectorId: connector.id,
    environment: p.environment,
    scopeLabel: p.scopeLabel,
    state: 'requested',
    capabilities: p.capabilities.map((capability) => {
      const cap = findCapability(capability);
      return { capability, critical: cap?.critical ?? false, idempotencyRequired: cap?.idempotencyRequired ?? false };
    }),
    nextStep: NEXT_STEP.requested ?? '',
    createdAt: at,
    created_by: call.clientId ?? '',
    updated_at: at,
  };
  state.connections.push(c);
  changed(state, c, 'connection.created', 'connection.create', c.created_by, call.requestId);
  later(state, state.options.activationDelayMs, () => {
    if (c.state !== 'requested') return;
    move(c, 'active');
    changed(state, c, 'connection.activated', 'connection.activate', 'system', null);
  });
  return connectionView(c);
}

function move(c: Connection, to: string): void {
  c.state = to;
  c.nextStep = NEXT_STEP[to] ?? 'none';
  c.updated_at = new Date().toISOString();
}

/** POST /connections/{id}/pause and /resume (alder's additions). */
export function setPaused(state: State, call: Call, id: string, paused: boolean) {
  const c = state.connections.find((x) => x.id === id && x.tenant === call.tenant);
  if (!c) throw new ApiError('not_found', 'Connection not found', undefined, 'compare identifier and tenant header');
  if (paused && c.state !== 'paused') {
    move(c, 'paused');
    changed(state, c, 'connection.paused', 'connection.pause', call.clientId ?? '', call.requestId);
  } else if (!paused && c.state === 'paused') {
    move(c, 'active');
    changed(state, c, 'connection.activated', 'connection.resume', call.clientId ?? '', call.requestId);
  }
  return connectionView(c);
}

/** GET /providers, /connectors, /capabilities with the contract's filters and optional paging. */
export function catalogList(call: Call, kind: 'providers' | 'connectors' | 'capabilities', all: unknown[]): void {
  const q = call.url.searchParams;
  let list = all as Record<string, unknown>[];
  const category = q.get('category');
  if (kind !== 'capabilities' && category !== null) list = list.filter((x) => x.category === category);
  if (kind === 'connectors') {
    const providerId = q.get('providerId');
    const capability = q.get('capability');
    if (providerId !== null) list = list.filter((x) => x.providerId === providerId);
    if (capability !== null) list = list.filter((x) => (x.capabilities as string[]).includes(capability));
  }
  const page = paginate(list, call.url, call.origin, call.headers);
  ok(call, { count: page.items.length, [kind]: page.items });
}
