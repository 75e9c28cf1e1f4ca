// The interface's operations (catalog, capability checks, connections, keys, webhooks, audit log), each a
// function of the deployment and the request context that returns `data` or throws an ApiError.
import { type AuditLog, auditPage, record } from './audit.ts';
import { ApiError, type Ctx } from './http.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import {
  CAPABILITIES,
  CONNECTORS,
  type Connection,
  ENVIRONMENTS,
  formatTime,
  later,
  nowIso,
  PROVIDERS,
  randomToken,
  type State,
  snowflake,
} from './state.ts';
import { publish, type Stream } from './stream.ts';
import { type Deliveries, emit, eventName } from './webhooks.ts';

export interface Deployment {
  state: State;
  stream: Stream;
  audit: AuditLog;
  deliveries: Deliveries;
}

function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${field} is required and must be a string`);
  const n = [...v].length;
  if (n < min || n > max) throw new ApiError('invalid_request', `${field} must be ${min} to ${max} characters long`);
  return v;
}

function environment(v: unknown, fallback?: string): string {
  if (v === undefined && fallback) return fallback;
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw new ApiError('invalid_request', 'environment must be one of development, sandbox, pilot, production');
  }
  return v;
}

function onlyFields(body: Record<string, unknown>, allowed: string[], discard = false): void {
  if (discard) {
    for (const k of Object.keys(body)) if (!allowed.includes(k)) delete body[k];
    return;
  }
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k))
      throw new ApiError('invalid_request', `unknown field ${k}`, { hint: `fields: ${allowed.join(', ')}` });
  }
}

export function listProviders(ctx: Ctx) {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx) {
  const q = ctx.query;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities() {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

/** POST /capabilities: an unknown connector is 404; a capability it does not offer is decided "not allowed". */
export function checkCapability(d: Deployment, body: Record<string, unknown>) {
  onlyFields(body, ['connectorId', 'capability', 'environment'], d.state.choices.discardUnknown);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body.environment, 'sandbox');
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError('not_found', 'no such connector', { hint: 'see GET /api/public/v1/connectors' });
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const allowed = !!cap && connector.capabilities.includes(capability);
  const reason = allowed
    ? 'the connector offers this capability'
    : cap
      ? 'the connector does not offer this capability'
      : 'the capability is not in the catalog';
  return {
    decision: {
      connectorId,
      capability,
      allowed,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  };
}

export function listConnections(d: Deployment, ctx: Ctx) {
  const connections = d.state.connections.get(ctx.tenant ?? '') ?? [];
  return { tenant: ctx.tenant, count: connections.length, connections };
}

/** POST /connections: validated wholly before anything is written. */
export function createConnection(d: Deployment, ctx: Ctx, body: Record<string, unknown>) {
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities'], d.state.choices.discardUnknown);
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body.environment);
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', 'capabilities must list 1 to 24 capabilities');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || [...c].length < 2 || [...c].length > 120) {
      throw new ApiError('invalid_request', 'each capability must be a string of 2 to 120 characters');
    }
  }
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError('not_found', 'no such connector', { hint: 'see GET /api/public/v1/connectors' });
  for (const c of caps as string[]) {
    if (!connector.capabilities.includes(c)) {
      throw new ApiError('capability_denied', 'capability is not released for this connection', {
        detail: `capability ${c}`,
      });
    }
  }
  const tenant = ctx.tenant ?? '';
  const conn: Connection = {
    id: snowflake(),
    connectorId,
    environment: env,
    scopeLabel,
    state: 'pending',
    capabilities: (caps as string[]).map((c) => {
      const cap = CAPABILITIES.find((x) => x.id === c);
      return {
        capability: c,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: 'await_activation',
    createdAt: nowIso(),
  };
  const list = d.state.connections.get(tenant) ?? [];
  d.state.connections.set(tenant, list);
  list.push(conn);
  const actor = ctx.clientId ?? '';
  record(d.audit, tenant, {
    action: 'CONNECTION_CREATED',
    resource_type: 'connection',
    resource_id: conn.id,
    actor,
    details: { connector_id: connectorId, environment: env, scope_label: scopeLabel },
  });
  publish(d.stream, eventName(d.state.choices, 'connection.created'), { connectionId: conn.id, state: conn.state });
  emit(d.state, d.deliveries, tenant, 'connection.created', { ...conn });
  later(d.state, d.state.activationMs, () => {
    conn.state = 'active';
    conn.nextStep = 'none';
    record(d.audit, tenant, {
      action: 'CONNECTION_ACTIVATED',
      resource_type: 'connection',
      resource_id: conn.id,
      actor: 'system',
      details: { state: 'active' },
    });
    publish(d.stream, eventName(d.state.choices, 'connection.activated'), { connectionId: conn.id, state: conn.state });
    emit(d.state, d.deliveries, tenant, 'connection.activated', { ...conn });
  });
  return { ...conn, capabilities: conn.capabilities.map((c) => ({ ...c })) };
}

export function issueKey(d: Deployment, body: Record<string, unknown>) {
  onlyFields(body, ['operation'], d.state.choices.discardUnknown);
  const operation = text(body, 'operation', 2, 80);
  return {
    idempotencyKey: `idk:${snowflake()}:${randomToken(9)}`,
    operation,
    expiresAt: formatTime(new Date(Date.now() + KEY_TTL_MS)),
  };
}

export function readAudit(d: Deployment, ctx: Ctx) {
  return auditPage(d.audit, ctx);
}

export function info(ctx: Ctx) {
  return { tenant: ctx.tenant, clientId: ctx.clientId, environment: 'sandbox', version: ctx.version };
}

export function recordWebhook(d: Deployment, ctx: Ctx, action: string, id: string): void {
  record(d.audit, ctx.tenant ?? '', {
    action,
    resource_type: 'webhook',
    resource_id: id,
    actor: ctx.clientId ?? '',
    details: {},
  });
}
