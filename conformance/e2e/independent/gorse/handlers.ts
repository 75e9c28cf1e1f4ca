// Endpoint handlers: each gets the tenant, parsed body and path params and returns data or throws ApiError.
import { CAPABILITIES, CONNECTORS, capFlags, connector, PROVIDERS } from './catalog.ts';
import { ApiError, ENVIRONMENTS, newId, onlyFields, str } from './http-kit.ts';
import type { Connection, GorseState } from './state.ts';
import type { WebhookHub } from './webhooks.ts';

export interface Ctx {
  state: GorseState;
  hub: WebhookHub;
  tenant: string;
  clientId: string;
  body: Record<string, unknown>;
  params: string[];
  url: URL;
}

function filter<T extends Record<string, unknown>>(
  list: T[],
  url: URL,
  fields: Record<string, (e: T, v: string) => boolean>,
) {
  let out = list;
  for (const [name, test] of Object.entries(fields)) {
    const v = url.searchParams.get(name);
    if (v !== null) out = out.filter((e) => test(e, v));
  }
  return out;
}

export function listProviders(c: Ctx) {
  const providers = filter(PROVIDERS, c.url, { category: (p, v) => p.category === v });
  return { count: providers.length, providers };
}

export function listConnectors(c: Ctx) {
  const connectors = filter(CONNECTORS, c.url, {
    capability: (k, v) => k.capabilities.includes(v),
    providerId: (k, v) => k.providerId === v,
    category: (k, v) => k.category === v,
  });
  return { count: connectors.length, connectors };
}

export function listCapabilities() {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

function environment(body: Record<string, unknown>, fallback?: string): string {
  const v = body.environment === undefined ? fallback : body.environment;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw new ApiError('invalid_request', 'environment must be one of development, sandbox, pilot, production');
  }
  return v;
}

export function checkCapability(c: Ctx) {
  onlyFields(c.body, ['connectorId', 'capability', 'environment']);
  const connectorId = str(c.body, 'connectorId', 2, 120);
  const cap = str(c.body, 'capability', 2, 120);
  const env = environment(c.body, 'sandbox');
  const k = connector(connectorId);
  if (!k && c.state.opts.unknownConnector404) throw new ApiError('not_found', 'no such connector');
  const offered = k?.capabilities.includes(cap) ?? false;
  const reason = !k ? 'connector_unknown' : offered ? 'offered_by_connector' : 'not_offered_by_connector';
  return { decision: { connectorId, capability: cap, allowed: offered, ...capFlags(cap), reason }, environment: env };
}

export function listConnections(c: Ctx) {
  const connections = c.state.connections.get(c.tenant) ?? [];
  return { tenant: c.tenant, count: connections.length, connections };
}

export function getConnection(c: Ctx) {
  const found = (c.state.connections.get(c.tenant) ?? []).find((x) => x.id === c.params[0]);
  if (!found) throw new ApiError('not_found', 'no such connection for this tenant');
  return found;
}

export function createConnection(c: Ctx) {
  onlyFields(c.body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = str(c.body, 'connectorId', 2, 120);
  const env = environment(c.body);
  const scopeLabel = str(c.body, 'scopeLabel', 2, 120);
  const caps = c.body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24)
    throw new ApiError('invalid_request', 'capabilities must hold 1 to 24 items');
  for (let i = 0; i < caps.length; i++) str(caps as unknown as Record<string, unknown>, String(i), 2, 120);
  const k = connector(connectorId);
  if (!k) throw new ApiError('not_found', 'no such connector');
  const missing = (caps as string[]).filter((x) => !k.capabilities.includes(x));
  if (missing.length)
    throw new ApiError('capability_denied', `capability not released for this connector: ${missing.join(', ')}`);
  const conn: Connection = {
    id: newId('conn'),
    connectorId,
    environment: env,
    scopeLabel,
    state: 'provisioning',
    capabilities: (caps as string[]).map((x) => ({ capability: x, ...capFlags(x) })),
    nextStep: 'await_provisioning',
    createdAt: new Date().toISOString(),
  };
  const list = c.state.connections.get(c.tenant) ?? [];
  list.push(conn);
  c.state.connections.set(c.tenant, list);
  c.state.record(c.tenant, 'connection.created', conn.id, c.clientId);
  const tenant = c.tenant;
  c.state.publish('conn.provisioning', { connectionId: conn.id, state: conn.state });
  c.hub.emit(tenant, 'connection.created', { connection: { ...conn } });
  c.state.later(c.state.opts.liveAfterMs, () => {
    conn.state = 'live';
    conn.nextStep = 'none';
    c.state.record(tenant, 'connection.live', conn.id, 'system');
    c.state.publish('conn.live', { connectionId: conn.id, state: 'live' });
    c.hub.emit(tenant, 'connection.live', { connection: { ...conn } });
    if (c.state.opts.suspendAfterMs > 0) {
      c.state.later(c.state.opts.suspendAfterMs, () => {
        conn.state = 'suspended';
        conn.nextStep = 'contact_support';
        c.state.record(tenant, 'connection.suspended', conn.id, 'system');
        c.state.publish('conn.suspended', { connectionId: conn.id, state: 'suspended' });
        c.hub.emit(tenant, 'connection.suspended', { connection: { ...conn } });
      });
    }
  });
  return { ...conn, capabilities: conn.capabilities.map((x) => ({ ...x })) };
}

export function issueKey(c: Ctx) {
  onlyFields(c.body, ['operation']);
  const operation = str(c.body, 'operation', 2, 80);
  const idempotencyKey = newId('idk');
  c.state.record(c.tenant, 'idempotency_key.issued', operation, c.clientId);
  return { idempotencyKey, operation, expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString() };
}

export function createWebhook(c: Ctx) {
  onlyFields(c.body, ['url', 'events']);
  const out = c.hub.register(c.tenant, c.body);
  c.state.record(c.tenant, 'webhook.created', String(out.id), c.clientId);
  return out;
}

export function deleteWebhook(c: Ctx) {
  const out = c.hub.remove(c.tenant, c.params[0] ?? '');
  c.state.record(c.tenant, 'webhook.deleted', String(out.id), c.clientId);
  return out;
}

export function deliveryLog(c: Ctx) {
  return c.hub.log(c.tenant, c.params[0] ?? '');
}

export function redeliver(c: Ctx) {
  const out = c.hub.redeliver(c.tenant, c.params[0] ?? '');
  c.state.record(c.tenant, 'delivery.resent', String(out.id), c.clientId);
  return out;
}

export function info(c: Ctx) {
  return { tenant: c.tenant, clientId: c.clientId, environment: 'sandbox', service: 'gorse', version: '2026-07-01' };
}
