// Catalog, capability checks, connections and key issuing. A new connection starts `provisioning` and a
// timer moves it to `active` (each change is a stream message, a webhook event and an audit entry).
import { record } from './audit.ts';
import { ApiError, type Ctx, ok, parseJson, readBody } from './http.ts';
import { issueKey, once } from './idempotency.ts';
import { CAPABILITIES, CONNECTORS, ENVIRONMENTS, nextId, nowIso, PROVIDERS, type Rec, type Store } from './state.ts';
import { emit } from './stream.ts';
import { decode } from './validate.ts';

const ID = { kind: 'string', required: true, min: 2, max: 120 } as const;
const ENV = { kind: 'enum', values: ENVIRONMENTS } as const;

export function listProviders(ctx: Ctx): void {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = ctx.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export async function checkCapability(ctx: Ctx): Promise<void> {
  const body = decode(
    parseJson(await readBody(ctx.req)),
    { connectorId: ID, capability: ID, environment: { ...ENV, required: false } },
    ctx.store.opts.rejectUnknownFields,
  );
  const environment = body.environment ?? 'sandbox';
  const connector = CONNECTORS.find((c) => c.id === body.connectorId);
  if (!connector && ctx.store.opts.unknownConnector === 'not_found')
    throw new ApiError('not_found', 'connector not found');
  const cap = CAPABILITIES.find((c) => c.id === body.capability);
  const allowed = cap !== undefined && connector?.capabilities.includes(cap.id) === true;
  const reason = !connector
    ? 'connector_unknown'
    : cap === undefined
      ? 'capability_unknown'
      : allowed
        ? 'listed_by_connector'
        : 'not_listed_by_connector';
  const decision = {
    connectorId: body.connectorId,
    capability: body.capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
  ok(ctx, { decision, environment });
}

export function listConnections(ctx: Ctx): void {
  const connections = ctx.store.connections.get(ctx.tenant ?? '') ?? [];
  ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
}

export async function createConnection(ctx: Ctx): Promise<void> {
  const raw = await readBody(ctx.req);
  once(ctx, raw, () => {
    const spec = {
      connectorId: ID,
      environment: { ...ENV, required: true },
      scopeLabel: ID,
      capabilities: { kind: 'strings', required: true, min: 2, max: 120, minItems: 1, maxItems: 24 },
    } as const;
    const body = decode(parseJson(raw), spec, ctx.store.opts.rejectUnknownFields);
    const connector = CONNECTORS.find((c) => c.id === body.connectorId);
    if (!connector) throw new ApiError('not_found', 'connector not found');
    const caps = (body.capabilities as string[]).map((id) => {
      const cap = CAPABILITIES.find((c) => c.id === id);
      if (!cap || !connector.capabilities.includes(id)) {
        throw new ApiError('capability_denied', 'capability is not released for this connector', id);
      }
      return { capability: cap.id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
    });
    const tenant = ctx.tenant ?? '';
    const connection: Rec = {
      id: String(nextId(ctx.store, 'connection')),
      connectorId: connector.id,
      environment: body.environment,
      scopeLabel: body.scopeLabel,
      state: 'provisioning',
      capabilities: caps,
      nextStep: 'wait_for_activation',
      createdAt: nowIso(),
    };
    const list = ctx.store.connections.get(tenant) ?? [];
    list.push(connection);
    ctx.store.connections.set(tenant, list);
    record(ctx.store, tenant, ctx.clientId ?? '', 'connection.create', `connection/${connection.id}`);
    emit(ctx.store, tenant, 'connection.created', { ...connection });
    scheduleActivation(ctx.store, tenant, connection);
    return { ...connection };
  });
}

function scheduleActivation(store: Store, tenant: string, connection: Rec): void {
  const timer = setTimeout(() => {
    store.timers.delete(timer);
    connection.state = 'active';
    connection.nextStep = 'none';
    record(store, tenant, 'system', 'connection.activate', `connection/${connection.id}`);
    emit(store, tenant, 'connection.state_changed', { ...connection });
  }, store.opts.activateAfterMs);
  store.timers.add(timer);
}

export async function createKey(ctx: Ctx): Promise<void> {
  const body = decode(
    parseJson(await readBody(ctx.req)),
    { operation: { kind: 'string', required: true, min: 2, max: 80 } },
    ctx.store.opts.rejectUnknownFields,
  );
  ok(ctx, issueKey(body.operation));
}

/** GET /info: who is calling, for which tenant, against which environment (the sample first call). */
export function info(ctx: Ctx): void {
  ok(ctx, {
    service: 'boxelder',
    version: ctx.version,
    environment: ctx.store.environment,
    tenant: ctx.tenant,
    client_id: ctx.clientId,
  });
}
