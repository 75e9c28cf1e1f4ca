// The catalog and the tenant's connections. A connection starts `provisioning` and turns `active` after a
// short while (an ngx.timer in the original); both changes go to the stream, the webhooks and the audit log.
import { randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Ctx, type Rec, str } from './http.ts';
import { capabilities, connectors, ENVIRONMENTS, listOf, providers, type Store } from './state.ts';
import type { EventBus } from './stream.ts';
import { emit } from './webhooks.ts';

const only = (list: Rec[], field: string, value: string | null) =>
  value === null ? list : list.filter((r) => (Array.isArray(r[field]) ? r[field].includes(value) : r[field] === value));

export function listProviders(ctx: Ctx): Rec {
  const l = only(providers, 'category', ctx.url.searchParams.get('category'));
  return { count: l.length, providers: l };
}

export function listConnectors(ctx: Ctx): Rec {
  const q = ctx.url.searchParams;
  let l = only(connectors, 'capabilities', q.get('capability'));
  l = only(l, 'providerId', q.get('providerId'));
  l = only(l, 'category', q.get('category'));
  return { count: l.length, connectors: l };
}

export const listCapabilities = (): Rec => ({ count: capabilities.length, capabilities });

function environment(body: Rec, required: boolean): string {
  const env = body.environment;
  if (env === undefined && !required) return 'sandbox';
  if (typeof env !== 'string' || !ENVIRONMENTS.includes(env)) {
    throw new ApiError(400, 'invalid_request', `environment must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return env;
}

function decide(connectorId: string, capability: string): Rec {
  const con = connectors.find((c) => c.id === connectorId);
  if (!con) throw new ApiError(404, 'not_found', 'no such connector');
  const cap = capabilities.find((c) => c.id === capability);
  const offered = con.capabilities.includes(capability);
  const reason = !cap ? 'capability_unknown' : offered ? 'offered_by_connector' : 'not_offered_by_connector';
  return {
    connectorId,
    capability,
    allowed: Boolean(cap) && offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
}

export function checkCapability(body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120) as string;
  const capability = str(body, 'capability', 2, 120) as string;
  const env = environment(body, false);
  return { decision: decide(connectorId, capability), environment: env };
}

/** Validates a creation body before any effect, so a refusal stores nothing under the key. */
export function validateConnection(body: Rec): Rec {
  const connectorId = str(body, 'connectorId', 2, 120) as string;
  const env = environment(body, true);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) as string;
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError(400, 'invalid_request', 'capabilities must be an array of 1 to 24 items');
  }
  for (const c of caps) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw new ApiError(400, 'invalid_request', 'each capability must be a string of 2 to 120 characters');
    }
  }
  const decisions = [...new Set(caps as string[])].map((c) => decide(connectorId, c));
  const denied = decisions.find((d) => !d.allowed);
  if (denied) {
    throw new ApiError(409, 'capability_denied', `capability ${denied.capability} is not released for this connector`);
  }
  return { connectorId, environment: env, scopeLabel, decisions };
}

export function createConnection(store: Store, bus: EventBus, tenant: string, actor: string, v: Rec): Rec {
  const conn: Rec = {
    id: randomUUID(),
    connectorId: v.connectorId,
    environment: v.environment,
    scopeLabel: v.scopeLabel,
    state: 'provisioning',
    capabilities: v.decisions.map((d: Rec) => ({
      capability: d.capability,
      critical: d.critical,
      idempotencyRequired: d.idempotencyRequired,
    })),
    nextStep: 'wait_for_activation',
    createdAt: new Date().toISOString(),
  };
  listOf(store.connections, tenant).push(conn);
  const snapshot = structuredClone(conn);
  change(store, bus, tenant, actor, 'connection.created', conn);
  const timer = setTimeout(() => {
    store.timers.delete(timer);
    conn.state = 'active';
    conn.nextStep = 'none';
    change(store, bus, tenant, 'system', 'connection.activated', conn);
  }, store.options.activateAfterMs);
  store.timers.add(timer);
  return snapshot;
}

function change(store: Store, bus: EventBus, tenant: string, actor: string, event: string, conn: Rec): void {
  record(store, tenant, actor, event, 'connection', conn.id);
  bus.publish(tenant, event, { connection: structuredClone(conn) }, { connectionId: conn.id, state: conn.state });
  emit(store, tenant, event, { connection: structuredClone(conn) });
}
