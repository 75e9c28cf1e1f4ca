// The RESTEasy Reactive resources of the interface (catalog, capability checks, connections, keys, audit).
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import type { ConnectionEntity, State } from './state.ts';
import { ApiError, type Ctx, notFound, nowIso, readJson, sendData, uuid } from './util.ts';
import { CHECK_SCHEMA, CONNECTION_SCHEMA, KEY_SCHEMA, validate } from './validate.ts';
import { publishEvent } from './webhooks.ts';

export function listProviders(ctx: Ctx): void {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  sendData(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = ctx.url.searchParams;
  const [capability, providerId, category] = [q.get('capability'), q.get('providerId'), q.get('category')];
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  sendData(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  sendData(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export async function checkCapability(ctx: Ctx): Promise<void> {
  const body = await readJson(ctx.req);
  validate(body, CHECK_SCHEMA);
  const connector = connectorById(String(body.connectorId));
  if (!connector) throw notFound('No connector with this id in the catalog');
  const capability = String(body.capability);
  const environment = typeof body.environment === 'string' ? body.environment : 'sandbox';
  const known = capabilityById(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !known
    ? 'CAPABILITY_UNKNOWN: the capability is not in the catalog'
    : offered
      ? `OFFERED: ${connector.name} offers ${known.label.toLowerCase()} in ${environment}`
      : `NOT_OFFERED: ${connector.name} does not offer this capability`;
  const decision = {
    connectorId: connector.id,
    capability,
    allowed: Boolean(known && offered),
    critical: known?.critical ?? false,
    idempotencyRequired: known?.idempotencyRequired ?? false,
    reason,
  };
  sendData(ctx, { decision, environment });
}

const publicView = (c: ConnectionEntity) => {
  const { tenant: _t, updatedAt: _u, version: _v, ...rest } = c;
  return { ...rest, updatedAt: c.updatedAt, revision: c.version };
};

export function listConnections(ctx: Ctx, s: State): void {
  const connections = s.connections.filter((c) => c.tenant === ctx.tenant).map(publicView);
  sendData(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

export async function createConnection(ctx: Ctx, s: State): Promise<void> {
  const key = s.idempotency.requireKey(ctx);
  const body = await readJson(ctx.req);
  validate(body, CONNECTION_SCHEMA);
  const { data, replayed } = s.idempotency.run(ctx, key, 'POST /connections', body, () => {
    const connector = connectorById(String(body.connectorId));
    if (!connector) throw notFound('No connector with this id in the catalog');
    const wanted = body.capabilities as string[];
    const missing = wanted.filter((c) => !connector.capabilities.includes(c));
    if (missing.length > 0)
      throw new ApiError(
        409,
        'capability_denied',
        'The capability is not released for this connection',
        `${missing.length} requested capability(ies) not offered by connector ${connector.id}`,
        'Have the capability released or pick a connector that offers it',
      );
    const at = nowIso();
    const c: ConnectionEntity = {
      id: uuid(),
      tenant: ctx.tenant ?? '',
      connectorId: connector.id,
      environment: String(body.environment),
      scopeLabel: String(body.scopeLabel),
      state: 'REQUESTED',
      // sortCapabilities: a Java SortedSet<String> in the entity, so the list comes back in name order.
      capabilities: (s.sortCapabilities ? [...wanted].sort() : wanted).map((id) => {
        const cap = capabilityById(id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'AWAIT_PROVISIONING',
      createdAt: at,
      updatedAt: at,
      version: 1,
    };
    s.connections.push(c);
    s.audit.append(ctx, 'connection.created', 'connection', c.id, {
      connectorId: c.connectorId,
      environment: c.environment,
      scopeLabel: c.scopeLabel,
    });
    s.stream.emit('ConnectionCreated', {
      connectionId: c.id,
      connectorId: c.connectorId,
      environment: c.environment,
      state: c.state,
    });
    publishEvent(s, c.tenant, 'ConnectionCreated', c.id, publicView(c));
    scheduleActivation(s, c);
    return publicView(c);
  });
  sendData(ctx, data, { replayed });
}

/** Provisioning finishes on its own after activationMs: REQUESTED -> ACTIVE. */
function scheduleActivation(s: State, c: ConnectionEntity): void {
  const t = setTimeout(() => {
    s.timers.delete(t);
    c.state = 'ACTIVE';
    c.nextStep = 'NONE';
    c.updatedAt = nowIso();
    c.version += 1;
    s.stream.emit('ConnectionActivated', {
      connectionId: c.id,
      connectorId: c.connectorId,
      environment: c.environment,
      state: c.state,
    });
    publishEvent(s, c.tenant, 'ConnectionActivated', c.id, publicView(c));
  }, s.activationMs);
  s.timers.add(t);
}

export async function issueKey(ctx: Ctx, s: State): Promise<void> {
  const body = await readJson(ctx.req);
  validate(body, KEY_SCHEMA);
  sendData(ctx, s.idempotency.issue(String(body.operation)));
}

export function auditLog(ctx: Ctx, s: State): void {
  const page = s.audit.page(ctx);
  const headers: Record<string, string> =
    typeof page.next === 'string' ? { link: `<${ctx.origin}${page.next}>; rel="next"` } : {};
  sendData(ctx, page, {}, headers);
}

export function info(ctx: Ctx, s: State, tokenExpiresAt: number): void {
  sendData(ctx, {
    service: 'hawthorn',
    tenant: ctx.tenant,
    clientId: ctx.clientId,
    environment: 'sandbox',
    releasedTenants: s.auth.released,
    tokenExpiresAt: new Date(tokenExpiresAt * 1000).toISOString(),
    purpose: 'conformance and integration testing with invented data',
    responsible: 'hawthorn platform team',
  });
}
