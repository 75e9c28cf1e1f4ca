// Catalog, capability checks and connections. Bodies are decoded strictly, as ppx_yojson_conv records without
// [@@yojson.allow_extra_fields]: an unknown field is a 400, like a missing one.
import { randomUUID } from 'node:crypto';
import { appendAudit } from './audit.ts';
import type { Principal } from './auth.ts';
import { Failure, type Rec } from './http.ts';
import { CAPABILITIES, CONNECTORS, ENVIRONMENTS, PROVIDERS, type Store } from './state.ts';
import { emit } from './stream.ts';
import { deliverEvent } from './webhooks.ts';

function text(body: Rec, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string') throw new Failure('invalid_request', `${field}: expected a string`);
  if (v.length < min || v.length > max) {
    throw new Failure('invalid_request', `${field}: expected a string of length ${min} to ${max}`);
  }
  return v;
}

function environment(v: unknown): string {
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw new Failure('invalid_request', `environment: expected one of ${ENVIRONMENTS.join(', ')}`);
  }
  return v;
}

export function onlyFields(body: Rec, allowed: string[]): void {
  const extra = Object.keys(body).find((k) => !allowed.includes(k));
  if (extra) throw new Failure('invalid_request', `unknown field: ${extra}`, { hint: 'see the OpenAPI document' });
}

export function listProviders(q: URLSearchParams): Rec {
  const cat = q.get('category');
  const providers = PROVIDERS.filter((p) => cat === null || p.category === cat);
  return { count: providers.length, providers };
}

export function listConnectors(q: URLSearchParams): Rec {
  const [cap, prov, cat] = [q.get('capability'), q.get('providerId'), q.get('category')];
  const connectors = CONNECTORS.filter(
    (c) =>
      (cap === null || c.capabilities.includes(cap)) &&
      (prov === null || c.providerId === prov) &&
      (cat === null || c.category === cat),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): Rec {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

function connectorOf(id: string): Rec {
  const c = CONNECTORS.find((x) => x.id === id);
  if (!c) throw new Failure('not_found', 'connector not found');
  return c;
}

export function checkCapability(body: Rec): Rec {
  onlyFields(body, ['connectorId', 'capability', 'environment']);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = body.environment === undefined ? 'sandbox' : environment(body.environment);
  const connector = connectorOf(connectorId);
  const cap = CAPABILITIES.find((c) => c.id === capability);
  const offered = connector.capabilities.includes(capability);
  const decision = {
    connectorId,
    capability,
    allowed: offered && cap !== undefined,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? true,
    reason: offered ? 'offered_by_connector' : cap ? 'not_offered_by_connector' : 'unknown_capability',
  };
  return { decision, environment: env };
}

export function listConnections(store: Store, who: Principal): Rec {
  const own = store.connections.filter((c) => store.connectionTenant.get(c.id) === who.tenant);
  const connections = store.options.connectionsNewestFirst ? own.reverse() : own;
  return { tenant: who.tenant, count: connections.length, connections };
}

/** Validates first (400/404/409 leave no record), then creates, logs, streams and delivers. */
export function validateConnection(body: Rec): void {
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connector = connectorOf(text(body, 'connectorId', 2, 120));
  environment(body.environment);
  text(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new Failure('invalid_request', 'capabilities: expected 1 to 24 items');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw new Failure('invalid_request', 'capabilities: each item a string of length 2 to 120');
    }
    if (!CAPABILITIES.some((x) => x.id === c)) throw new Failure('invalid_request', `unknown capability: ${c}`);
    if (!connector.capabilities.includes(c)) {
      throw new Failure('capability_denied', `capability ${c} is not released for this connector`, {
        hint: 'have the capability released',
      });
    }
  }
}

export function createConnection(store: Store, who: Principal, body: Rec): Rec {
  const env = body.environment as string;
  const review = env === 'pilot' || env === 'production';
  const connection = {
    id: randomUUID(),
    connectorId: body.connectorId,
    environment: env,
    scopeLabel: body.scopeLabel,
    state: review ? 'pending_review' : 'active',
    capabilities: (body.capabilities as string[]).map((c) => {
      const cap = CAPABILITIES.find((x) => x.id === c);
      return { capability: c, critical: cap?.critical ?? false, idempotencyRequired: cap?.idempotencyRequired ?? true };
    }),
    nextStep: review ? 'await_partner_review' : 'send_first_order',
    createdAt: new Date().toISOString(),
  };
  store.connections.push(connection);
  store.connectionTenant.set(connection.id, who.tenant);
  appendAudit(store, who, 'connection.create', connection.id);
  emit(store, who.tenant, 'connection_created', { connectionId: connection.id, state: connection.state });
  deliverEvent(store, who.tenant, 'connection.created', connection);
  return connection;
}
