// Catalog reads, capability checks and connections (the HoneySQL queries of the original, over arrays here).
import { appendAudit } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capability, connector, PROVIDERS } from './catalog.ts';
import { type Ctx, fail, jsonBody, str } from './http.ts';
import { ENVIRONMENTS, instant, nextId, publish, type Rec } from './state.ts';
import { deliverEvent } from './webhooks.ts';

export function listProviders(ctx: Ctx): Rec {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => !category || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): Rec {
  const q = ctx.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (!q.get('capability') || c.capabilities.includes(q.get('capability'))) &&
      (!q.get('providerId') || c.providerId === q.get('providerId')) &&
      (!q.get('category') || c.category === q.get('category')),
  );
  return { count: connectors.length, connectors };
}

export const listCapabilities = (): Rec => ({ count: CAPABILITIES.length, capabilities: CAPABILITIES });

function environmentOf(body: Rec, fallback?: string): string {
  const env = body.environment ?? fallback;
  if (typeof env !== 'string' || !ENVIRONMENTS.includes(env))
    fail('invalid_request', 'Unknown environment', `environment must be one of ${ENVIRONMENTS.join(', ')}`);
  return env as string;
}

export function checkCapability(ctx: Ctx): Rec {
  const body = jsonBody(ctx);
  const connectorId = str(body, 'connectorId', 2, 120) as string;
  const cap = str(body, 'capability', 2, 120) as string;
  const environment = environmentOf(body, 'sandbox');
  const c = connector(connectorId);
  const known = capability(cap);
  const offered = Boolean(c?.capabilities.includes(cap));
  const reason = !c ? 'unknown-connector' : !known ? 'unknown-capability' : offered ? 'offered' : 'not-offered';
  const decision = {
    connectorId,
    capability: cap,
    allowed: offered && Boolean(known),
    critical: Boolean(known?.critical),
    idempotencyRequired: Boolean(known?.idempotencyRequired),
    reason,
  };
  return { decision, environment };
}

/**
 * GET /connections: every connection of the tenant, oldest first (bigserial order). The interface shows no
 * parameters, so a call without them gets all; `offset`/`limit` are an opt-in, with a `next` link in the body.
 */
export function listConnections(ctx: Ctx): Rec {
  const q = ctx.url.searchParams;
  const max = ctx.store.opts.pageLimit;
  const all = ctx.store.connections.filter((c) => c.tenant === ctx.tenant);
  const limit = q.has('limit') ? Number(q.get('limit')) : Math.max(all.length, 1);
  const offset = q.has('offset') ? Number(q.get('offset')) : 0;
  if (!Number.isInteger(limit) || limit < 1 || (q.has('limit') && limit > max))
    fail('invalid_request', 'Bad limit', `limit is an integer from 1 to ${max}`);
  if (!Number.isInteger(offset) || offset < 0) fail('invalid_request', 'Bad offset', 'offset is an integer >= 0');
  const connections = all.slice(offset, offset + limit).map(({ tenant: _t, ...c }) => c);
  const more = offset + limit < all.length;
  const next = more ? `/api/public/v1/connections?offset=${offset + limit}&limit=${limit}` : null;
  return { tenant: ctx.tenant, count: connections.length, total: all.length, offset, limit, next, connections };
}

export function createConnection(ctx: Ctx): Rec {
  const body = jsonBody(ctx);
  const connectorId = str(body, 'connectorId', 2, 120) as string;
  const environment = environmentOf(body);
  const scopeLabel = str(body, 'scopeLabel', 2, 120) as string;
  const caps = body.capabilities;
  if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24)
    fail('invalid_request', 'Request unsuitable', 'capabilities must be an array of 1 to 24 strings');
  for (const c of caps as unknown[])
    if (typeof c !== 'string' || c.length < 2 || c.length > 120)
      fail('invalid_request', 'Request unsuitable', 'each capability must be a string of length 2 to 120');
  const c = connector(connectorId);
  if (!c) return fail('not_found', 'Connector not found', `No connector ${connectorId}`);
  for (const cap of caps as string[]) {
    if (!capability(cap)) fail('invalid_request', 'Unknown capability', `${cap} is not in the catalog`);
    if (!c.capabilities.includes(cap))
      fail('capability_denied', 'Capability not released for this connection', `${cap} is not booked on ${c.id}`);
  }
  const conn: Rec = {
    id: nextId(ctx.store, 'conn'),
    connectorId,
    environment,
    scopeLabel,
    state: 'provisioning',
    capabilities: (caps as string[]).map((id) => {
      const k = capability(id) ?? {};
      return { capability: id, critical: Boolean(k.critical), idempotencyRequired: Boolean(k.idempotencyRequired) };
    }),
    nextStep: 'await-provider-activation',
    createdAt: instant(),
  };
  ctx.store.connections.push({ ...conn, tenant: ctx.tenant });
  const tenant = ctx.tenant as string;
  appendAudit(ctx.store, tenant, ctx.clientId ?? '', 'connection.created', conn.id);
  const created = publish(ctx.store, 'connection.created', tenant, { connectionId: conn.id, state: conn.state });
  deliverEvent(ctx.store, tenant, created);
  // The provider's activation arrives a moment later (a core.async timeout in the original).
  const t = setTimeout(() => {
    ctx.store.timers.delete(t);
    const row = ctx.store.connections.find((x) => x.id === conn.id);
    if (!row) return;
    row.state = 'active';
    row.nextStep = 'ready';
    const e = publish(ctx.store, 'connection.activated', tenant, { connectionId: conn.id, state: 'active' });
    deliverEvent(ctx.store, tenant, e);
  }, 200);
  ctx.store.timers.add(t);
  return conn;
}
