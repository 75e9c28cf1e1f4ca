// The catalog and connection RPCs (ProviderService, ConnectorService, CapabilityService, ConnectionService).
import { record } from './audit.ts';
import type { Principal } from './auth.ts';
import { CAPABILITIES, CONNECTORS, capability, connector, PROVIDERS } from './catalog.ts';
import { type Call, fail, now, ok } from './http.ts';
import { lookup, store } from './idempotency.ts';
import { type Connection, later, rid, type State } from './state.ts';
import { publish } from './stream.ts';
import { Rules } from './validate.ts';
import { emit } from './webhooks.ts';

function invalid(call: Call, rules: Rules): void {
  fail(call, 'invalid_request', 'the request does not match the published description', {
    detail: rules.violations.map((v) => `${v.field}: ${v.description}`).join('; '),
    violations: rules.violations,
  });
}

export function listProviders(call: Call): void {
  const category = call.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(call, { count: providers.length, providers });
}

export function listConnectors(call: Call): void {
  const q = call.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') as string)) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(call, { count: connectors.length, connectors });
}

export function listCapabilities(call: Call): void {
  ok(call, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export function checkCapability(call: Call, body: Record<string, unknown>) {
  const rules = new Rules(body).known(['connectorId', 'capability', 'environment']);
  const connectorId = rules.text('connectorId', 2, 120);
  const cap = rules.text('capability', 2, 120);
  const environment = rules.environment('environment', false) ?? 'sandbox';
  if (rules.failed || connectorId === undefined || cap === undefined) return invalid(call, rules);
  const cn = connector(connectorId);
  if (!cn) return fail(call, 'not_found', 'no connector with this id', { hint: 'list GET /connectors' });
  const known = capability(cap);
  const offered = cn.capabilities.includes(cap);
  const reason = !known ? 'CAPABILITY_UNKNOWN' : offered ? 'CAPABILITY_OFFERED' : 'CAPABILITY_NOT_OFFERED';
  ok(call, {
    decision: {
      connectorId,
      capability: cap,
      allowed: Boolean(known && offered),
      critical: known?.critical ?? false,
      idempotencyRequired: known?.idempotencyRequired ?? false,
      reason,
    },
    environment,
  });
}

/** The public view of a connection: the contract's fields, then the resource name. */
export function view(c: Connection) {
  const { tenant: _t, ...rest } = c;
  return rest;
}

export function listConnections(state: State, call: Call, who: Principal): void {
  const connections = state.connections.filter((c) => c.tenant === who.tenant).map(view);
  ok(call, { tenant: who.tenant, count: connections.length, connections });
}

export function getConnection(state: State, call: Call, who: Principal, id: string) {
  const c = state.connections.find((x) => x.tenant === who.tenant && x.name === `connections/${id}`);
  if (!c) return fail(call, 'not_found', 'no connection with this id for the tenant');
  ok(call, view(c));
}

export function createConnection(state: State, call: Call, who: Principal, key: string, body: Record<string, unknown>) {
  const idem = lookup(state, call, who, key, 'connections', body);
  if (!idem) return;
  const rules = new Rules(body).known(['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = rules.text('connectorId', 2, 120);
  const environment = rules.environment('environment', true);
  const scopeLabel = rules.text('scopeLabel', 2, 120);
  const caps = rules.textList('capabilities', 1, 24, 2, 120);
  if (rules.failed || !connectorId || !environment || !scopeLabel || !caps) return invalid(call, rules);
  const cn = connector(connectorId);
  if (!cn) return fail(call, 'not_found', 'no connector with this id', { hint: 'list GET /connectors' });
  const denied = caps.filter((c) => !cn.capabilities.includes(c) || !capability(c));
  if (denied.length > 0) {
    return fail(call, 'capability_denied', 'a requested capability is not released for this connector', {
      hint: 'have the capability released, or request only the capabilities the connector lists',
    });
  }
  const short = rid('c');
  const id = state.opts.resourceNameIds ? `connections/${short}` : short;
  const createdAt = now();
  const conn: Connection = {
    id,
    name: `connections/${short}`,
    tenant: who.tenant,
    connectorId,
    environment,
    scopeLabel,
    state: 'PROVISIONING',
    capabilities: [...new Set(caps)].map((c) => {
      const k = capability(c);
      return { capability: c, critical: k?.critical ?? false, idempotencyRequired: k?.idempotencyRequired ?? false };
    }),
    nextStep: 'AWAIT_ACTIVATION',
    createdAt,
    updateTime: createdAt,
  };
  state.connections.push(conn);
  const data = view(conn);
  store(state, idem, data);
  record(state, who.tenant, who.clientId, 'CREATE_CONNECTION', conn.name);
  publish(state, 'connection.created', { connection: conn.name, state: conn.state, time: createdAt });
  emit(state, who.tenant, 'connection.created', { connection: data });
  ok(call, data, { idempotencyKey: key, replayed: false });
  later(state, state.opts.activationMs, () => {
    conn.state = 'ACTIVE';
    conn.nextStep = 'NONE';
    conn.updateTime = now();
    record(state, who.tenant, 'system', 'ACTIVATE_CONNECTION', conn.name);
    publish(state, 'connection.state_changed', { connection: conn.name, state: conn.state, time: conn.updateTime });
    emit(state, who.tenant, 'connection.state_changed', { connection: view(conn) });
  });
}

export function issueKey(state: State, call: Call, body: Record<string, unknown>) {
  const rules = new Rules(body).known(['operation']);
  const operation = rules.text('operation', 2, 80);
  if (rules.failed || operation === undefined) return invalid(call, rules);
  const idempotencyKey = `${operation.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40)}:${rid('')}`;
  const expiresAt = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
  state.issuedKeys.set(idempotencyKey, { operation, expiresAt });
  ok(call, { idempotencyKey, operation, expiresAt });
}
