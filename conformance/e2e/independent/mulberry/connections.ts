// Connections: provisioning -> live after activationMs (paused exists as a state; no call pauses one
// here). Creation is idempotent; every change is published on the tenant feed, to webhooks and the audit log.
import { record } from './audit.ts';
import { capability, connector, environmentOf } from './catalog.ts';
import { ApiError, type Ctx, invalid, ok, str } from './http.ts';
import { idempotent } from './idempotency.ts';
import { type Connection, ksuid, later, now, type State } from './state.ts';
import { publish } from './stream.ts';

const NEXT_STEP = { provisioning: 'wait_until_live', live: 'none', paused: 'resume_connection' } as const;

function tenantConnections(state: State, tenant: string): Connection[] {
  let l = state.connections.get(tenant);
  if (!l) {
    l = [];
    state.connections.set(tenant, l);
  }
  return l;
}

export function listConnections(ctx: Ctx): void {
  const tenant = ctx.auth?.tenant ?? '';
  const connections = tenantConnections(ctx.state, tenant);
  const list = ctx.state.opts.connectionsNewestFirst ? [...connections].reverse() : connections;
  ok(ctx, { tenant, count: list.length, connections: list });
}

function validate(body: Record<string, unknown>) {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const environment = environmentOf(body.environment, true);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24)
    throw invalid('Field capabilities must be an array of 1 to 24 strings.', 'capabilities: wrong size or type');
  for (const c of caps)
    if (typeof c !== 'string' || c.length < 2 || c.length > 120)
      throw invalid('Each capability must be a string of 2 to 120 characters.', 'capabilities[]: wrong length or type');
  return { connectorId, environment, scopeLabel, capabilities: caps as string[] };
}

function create(ctx: Ctx, body: Record<string, unknown>): Connection {
  const tenant = ctx.auth?.tenant ?? '';
  const v = validate(body);
  const c = connector(v.connectorId);
  if (!c) throw new ApiError('not_found', 'Connector not found.', `connectorId: ${v.connectorId}`);
  const caps = v.capabilities.map((id) => {
    const cap = capability(id);
    if (!cap) throw invalid('Unknown capability.', `capabilities: ${id} is not in the catalog`);
    if (!c.capabilities.includes(id))
      throw new ApiError(
        'capability_denied',
        'Capability not released for this connection.',
        `${id} is not offered by ${c.id}.`,
      );
    return { capability: id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
  });
  const conn: Connection = {
    id: ksuid(),
    connectorId: c.id,
    environment: v.environment,
    scopeLabel: v.scopeLabel,
    state: 'provisioning',
    capabilities: caps,
    nextStep: NEXT_STEP.provisioning,
    createdAt: now(ctx.state),
  };
  const state = ctx.state;
  tenantConnections(state, tenant).push(conn);
  record(state, tenant, 'connection.created', conn.id);
  publish(state, tenant, 'connection.created', { connection: structuredClone(conn) });
  later(state, state.opts.activationMs, () => {
    conn.state = 'live';
    conn.nextStep = NEXT_STEP.live;
    record(state, tenant, 'connection.state_changed', conn.id);
    publish(state, tenant, 'connection.state_changed', {
      from: 'provisioning',
      to: 'live',
      connection: structuredClone(conn),
    });
  });
  return conn;
}

export function createConnection(ctx: Ctx): Promise<void> {
  return idempotent(ctx, (body) => create(ctx, body));
}
