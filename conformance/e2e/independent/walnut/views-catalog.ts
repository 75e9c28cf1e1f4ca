// Read views of the catalog and the connection views (list, create), capability checks, key issuance.
import { CAPABILITIES, CONNECTORS, decide, findCapability, findConnector, PROVIDERS } from './catalog.ts';
import { type Connection, type Ctx, fail, readJson, sendOk } from './core.ts';
import type { State } from './state.ts';
import { validateCapabilityCheck, validateConnection, validateKeyRequest } from './validate.ts';

function publicProvider(p: (typeof PROVIDERS)[number]) {
  return { id: p.id, name: p.name, category: p.category, summary: p.summary, slug: p.slug };
}

export function listProviders(_s: State, ctx: Ctx): void {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category).map(publicProvider);
  sendOk(ctx, { count: providers.length, providers });
}

export function listConnectors(_s: State, ctx: Ctx): void {
  const q = ctx.query;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  sendOk(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(_s: State, ctx: Ctx): void {
  sendOk(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export async function checkCapability(s: State, ctx: Ctx): Promise<void> {
  const body = await readJson(ctx);
  const input = validateCapabilityCheck(body);
  const connector = findConnector(input.connectorId);
  if (!connector) fail('not_found', `connectorId: No connector with id "${input.connectorId.slice(0, 120)}".`);
  s.idem.run(ctx, body, () => ({
    decision: decide(connector, input.capability, input.environment),
    environment: input.environment,
  }));
}

export function connectionView(c: Connection) {
  const { tenant: _t, ...rest } = c;
  return rest;
}

export function listConnections(s: State, ctx: Ctx): void {
  const connections = s.connections.filter((c) => c.tenant === ctx.tenant).map(connectionView);
  sendOk(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

export async function createConnection(s: State, ctx: Ctx): Promise<void> {
  const body = await readJson(ctx);
  const input = validateConnection(body);
  const tenant = ctx.tenant ?? '';
  s.idem.run(ctx, body, () => {
    const connector = findConnector(input.connectorId);
    if (!connector) fail('not_found', `connectorId: No connector with id "${input.connectorId}".`);
    const denied = input.capabilities.map((c) => decide(connector, c, input.environment)).filter((d) => !d.allowed);
    if (denied.length > 0) fail('capability_denied', denied.map((d) => `${d.capability}: ${d.reason}`).join('; '));
    const conn: Connection = {
      id: crypto.randomUUID(),
      connectorId: connector.id,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: 'pending_activation',
      capabilities: input.capabilities.map((c) => {
        const cap = findCapability(c);
        return {
          capability: c,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'wait_for_activation',
      createdAt: s.time(),
      tenant,
    };
    s.connections.push(conn);
    s.audit.record(tenant, {
      actor: ctx.clientId ?? '',
      action: 'connection.create',
      object_type: 'connection',
      object_id: conn.id,
      idempotency_key: ctx.idempotencyKey ?? '',
      summary: `created connection ${conn.id} in ${conn.environment}`,
    });
    s.stream.publish('connection.created', {
      connection_id: conn.id,
      state: conn.state,
      environment: conn.environment,
    });
    s.hooks.emit(tenant, 'connection.created', { connection: connectionView(conn) });
    scheduleActivation(s, conn);
    return connectionView(conn);
  });
}

/** The "provisioning task": a connection becomes active shortly after creation. */
function scheduleActivation(s: State, conn: Connection): void {
  const t = setTimeout(() => {
    s.timers.delete(t);
    conn.state = 'active';
    conn.nextStep = 'none';
    s.stream.publish('connection.state_changed', {
      connection_id: conn.id,
      state: conn.state,
      environment: conn.environment,
    });
    s.hooks.emit(conn.tenant, 'connection.activated', { connection: connectionView(conn) });
  }, s.opts.activationDelayMs);
  s.timers.add(t);
}

export async function issueKey(s: State, ctx: Ctx): Promise<void> {
  const body = await readJson(ctx);
  const input = validateKeyRequest(body);
  s.idem.run(ctx, body, () => s.idem.issue(input.operation));
}

export function info(s: State, ctx: Ctx): void {
  sendOk(ctx, {
    tenant: ctx.tenant,
    client_id: ctx.clientId,
    environment: 'sandbox',
    version: ctx.version,
    throttle_rates: {
      burst: `${s.opts.rateLimit}/${s.opts.windowMs / 1000}s`,
      sustained: `${s.opts.rateLimit * 10}/${s.opts.windowMs / 100}s`,
    },
  });
}
