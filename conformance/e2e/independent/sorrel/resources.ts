// Catalog reads, the capability check and connections (a port of the team's `CatalogController` and
// `ConnectionController`). States are the Kotlin enum's names as Jackson writes them: PENDING, then ACTIVE once
// the provisioning worker ran; nextStep is an upper-case action code for the partner's UI.

import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capability, connector, PROVIDERS } from './catalog.ts';
import { ApiError, type Ctx, environment, jsonBody, ok, text } from './http.ts';
import { idempotent } from './idempotency.ts';
import { instant, later, type Rec, type Store, ulid } from './state.ts';
import { publish } from './stream.ts';

export function providers(_store: Store, ctx: Ctx): void {
  const category = ctx.url.searchParams.get('category');
  const list = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: list.length, providers: list });
}

export function connectors(_store: Store, ctx: Ctx): void {
  const q = ctx.url.searchParams;
  const list = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability'))) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: list.length, connectors: list });
}

export function capabilities(_store: Store, ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

/** POST /capabilities: an unknown connector is 404; an unknown or unoffered capability is decided "not allowed". */
export function checkCapability(_store: Store, ctx: Ctx): void {
  const body = jsonBody(ctx, ['connectorId', 'capability', 'environment']);
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const cap = text(body, 'capability', 2, 120) ?? '';
  const env = body.environment === undefined ? 'sandbox' : environment(body.environment);
  const c = connector(connectorId);
  if (!c) throw new ApiError('not_found', `Connector ${connectorId} does not exist.`);
  const known = capability(cap);
  const allowed = Boolean(known) && c.capabilities.includes(cap);
  const reason = !known ? 'UNKNOWN_CAPABILITY' : allowed ? 'OFFERED_BY_CONNECTOR' : 'NOT_OFFERED_BY_CONNECTOR';
  const decision = {
    connectorId,
    capability: cap,
    allowed,
    critical: known?.critical ?? false,
    idempotencyRequired: known?.idempotencyRequired ?? false,
    reason,
  };
  ok(ctx, { decision, environment: env });
}

export function listConnections(store: Store, ctx: Ctx): void {
  const list = store.connections.filter((c) => c.tenant === ctx.tenant).map(view);
  ok(ctx, { tenant: ctx.tenant, count: list.length, connections: list });
}

function view(c: Rec): Rec {
  const { tenant: _tenant, ...rest } = c;
  return rest;
}

function validate(body: Rec): Rec {
  const connectorId = text(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body.environment);
  const scopeLabel = text(body, 'scopeLabel', 2, 120) ?? '';
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
    throw new ApiError('invalid_request', 'Field "capabilities" must be an array of 1 to 24 items.');
  }
  for (const x of caps) {
    if (typeof x !== 'string' || x.length < 2 || x.length > 120) {
      throw new ApiError('invalid_request', 'Each capability must be a string of 2 to 120 characters.');
    }
  }
  return { connectorId, environment: env, scopeLabel, capabilities: caps as string[] };
}

/** POST /connections: validated first (400 before 428: Javalin's validator runs on the body it parsed). */
export function createConnection(store: Store, ctx: Ctx): void {
  const body = jsonBody(ctx, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const input = validate(body);
  idempotent(store, ctx, 'connection.create', body, () => {
    const c = connector(input.connectorId);
    if (!c) throw new ApiError('not_found', `Connector ${input.connectorId} does not exist.`);
    const denied = input.capabilities.find((x: string) => !c.capabilities.includes(x));
    if (denied) {
      throw new ApiError('capability_denied', `Capability ${denied} is not booked for ${c.id}.`, 'Have it released.');
    }
    const conn: Rec = {
      id: ulid(),
      connectorId: c.id,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: 'PENDING',
      capabilities: [...new Set<string>(input.capabilities)].map((id) => ({
        capability: id,
        critical: capability(id)?.critical ?? false,
        idempotencyRequired: capability(id)?.idempotencyRequired ?? false,
      })),
      nextStep: 'AWAIT_PROVISIONING',
      createdAt: instant(),
      tenant: ctx.tenant,
    };
    store.connections.push(conn);
    record(store, ctx, 'connection.create', conn.id);
    publish(store, 'connection.created', conn.tenant, view(conn));
    later(store, store.options.provisionMs, () => {
      conn.state = 'ACTIVE';
      conn.nextStep = 'NONE';
      publish(store, 'connection.activated', conn.tenant, view(conn));
    });
    return view(conn);
  });
}
