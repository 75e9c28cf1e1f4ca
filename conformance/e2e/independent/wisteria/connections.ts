// Catalog reads, capability checks and connections (PENDING -> ACTIVE), with their stream messages,
// webhook events and audit entries.
import { recordAudit } from './audit.ts';
import type { Principal } from './auth.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, ENVIRONMENTS, PROVIDERS } from './catalog.ts';
import { ApiError, type Call, newId, nowIso, rejectUnknownFields, requireString, sendOk } from './http-kit.ts';
import { readKey, withIdempotency } from './idempotency.ts';
import { type Connection, later, type State } from './state.ts';
import { publish } from './stream.ts';
import { dispatch } from './webhooks.ts';

/** A copy of a catalog record (further fields of catalog records are legal: "Additional fields may be present"). */
function copy<T extends object>(x: T): T {
  return { ...x };
}

function filterParam(call: Call, name: string): string | undefined {
  const v = call.query.get(name);
  if (v === null) return undefined;
  if (v.length < 1 || v.length > 120) throw new ApiError('invalid_request', `Query parameter ${name} is malformed.`);
  return v;
}

export function listProviders(call: Call): void {
  const category = filterParam(call, 'category');
  const providers = PROVIDERS.filter((p) => category === undefined || p.category === category).map(copy);
  sendOk(call, { count: providers.length, providers });
}

export function listConnectors(call: Call): void {
  const capability = filterParam(call, 'capability');
  const providerId = filterParam(call, 'providerId');
  const category = filterParam(call, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === undefined || c.capabilities.includes(capability)) &&
      (providerId === undefined || c.providerId === providerId) &&
      (category === undefined || c.category === category),
  ).map((c) => ({ ...c, capabilities: [...c.capabilities] }));
  sendOk(call, { count: connectors.length, connectors });
}

export function listCapabilities(call: Call): void {
  sendOk(call, { count: CAPABILITIES.length, capabilities: CAPABILITIES.map(copy) });
}

function environmentOf(body: Record<string, unknown>, fallback?: string): string {
  const v = body.environment ?? fallback;
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw new ApiError('invalid_request', 'Field environment must be one of development, sandbox, pilot, production.');
  }
  return v;
}

/** POST /capabilities: an unknown connector is 404; an unknown or unoffered capability is decided "not allowed". */
export function checkCapability(call: Call, body: Record<string, unknown>): void {
  rejectUnknownFields(body, ['connectorId', 'capability', 'environment']);
  const connectorId = requireString(body, 'connectorId', 2, 120);
  const capability = requireString(body, 'capability', 2, 120);
  const environment = environmentOf(body, body.environment === undefined ? 'sandbox' : undefined);
  const connector = connectorById(connectorId);
  if (connector === undefined) throw new ApiError('not_found', 'No connector with this id.');
  const cap = capabilityById(capability);
  const offered = cap !== undefined && connector.capabilities.includes(capability);
  const reason =
    cap === undefined ? 'CAPABILITY_UNKNOWN' : offered ? 'OFFERED_BY_CONNECTOR' : 'NOT_OFFERED_BY_CONNECTOR';
  const decision = {
    connectorId,
    capability,
    allowed: offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
  sendOk(call, { decision, environment });
}

function tenantConnections(state: State, tenant: string): Connection[] {
  let list = state.connections.get(tenant);
  if (list === undefined) {
    list = [];
    state.connections.set(tenant, list);
  }
  return list;
}

function view(c: Connection, origin: string): Record<string, unknown> {
  return {
    ...c,
    capabilities: c.capabilities.map((x) => ({ ...x })),
    _links: { self: { href: `${origin}/api/public/v1/connections/${c.id}` } },
  };
}

export function listConnections(state: State, call: Call, who: Principal): void {
  const connections = tenantConnections(state, who.tenant).map((c) => view(c, call.origin));
  sendOk(call, { tenant: who.tenant, count: connections.length, connections });
}

export function getConnection(state: State, call: Call, who: Principal, id: string): void {
  const c = tenantConnections(state, who.tenant).find((x) => x.id === id);
  if (c === undefined) throw new ApiError('not_found', 'No connection with this id for the tenant.');
  sendOk(call, view(c, call.origin));
}

function validateCreation(body: Record<string, unknown>) {
  rejectUnknownFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = requireString(body, 'connectorId', 2, 120);
  const environment = environmentOf(body);
  const scopeLabel = requireString(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', 'Field capabilities must be a list of 1 to 24 capability ids.');
  }
  for (let i = 0; i < caps.length; i++) {
    requireString({ [`capabilities[${i}]`]: caps[i] }, `capabilities[${i}]`, 2, 120);
  }
  return { connectorId, environment, scopeLabel, capabilities: caps as string[] };
}

function emit(state: State, tenant: string, event: string, c: Connection, extra: Record<string, unknown>): void {
  const at = nowIso();
  publish(state, tenant, event, { at, connectionId: c.id, state: c.state, ...extra, connection: { ...c } });
  dispatch(state, tenant, event, { connection: { ...c }, ...extra });
}

/** POST /connections (Idempotency-Key required). */
export function createConnection(state: State, call: Call, who: Principal, body: Record<string, unknown>): void {
  const key = readKey(call, true);
  withIdempotency(state, call, who, key, body, () => {
    const input = validateCreation(body);
    const connector = connectorById(input.connectorId);
    if (connector === undefined) throw new ApiError('not_found', 'No connector with this id.');
    const missing = input.capabilities.filter((c) => !connector.capabilities.includes(c));
    if (missing.length > 0) {
      throw new ApiError(
        'capability_denied',
        'Capability is not released for this connector.',
        `Not offered: ${missing.join(', ')}.`,
        'Have the capability released.',
      );
    }
    const at = nowIso();
    const c: Connection = {
      id: newId('con'),
      connectorId: input.connectorId,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: 'PENDING',
      capabilities: input.capabilities.map((id) => {
        const cap = capabilityById(id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'AWAIT_ACTIVATION',
      createdAt: at,
      updatedAt: at,
    };
    tenantConnections(state, who.tenant).push(c);
    recordAudit(
      state,
      who.tenant,
      who.clientId,
      'connection.created',
      { type: 'connection', id: c.id },
      { state: c.state, idempotencyKey: key },
    );
    emit(state, who.tenant, 'connection.created', c, {});
    later(state, state.options.activationMs, () => {
      c.state = 'ACTIVE';
      c.nextStep = 'NONE';
      c.updatedAt = nowIso();
      recordAudit(
        state,
        who.tenant,
        'system',
        'connection.state-changed',
        { type: 'connection', id: c.id },
        { from: 'PENDING', to: 'ACTIVE' },
      );
      emit(state, who.tenant, 'connection.state-changed', c, { previousState: 'PENDING' });
    });
    return view(c, call.origin);
  });
}
