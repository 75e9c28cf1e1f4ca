// Catalog reads, capability checks, connections and idempotency keys.
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { CAPABILITIES, CONNECTORS, capability, connector, PROVIDERS } from './catalog.ts';
import { ApiError, autoId, type Ctx, ok, readJsonObject } from './http-util.ts';
import { KEY_TTL_MS, once, readKey } from './idempotency.ts';
import { type Connection, later, type State } from './state.ts';
import { publish } from './stream.ts';
import { enqueue } from './tasks.ts';
import { environment, onlyFields, text, textList } from './validate.ts';

export function listProviders(ctx: Ctx): void {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
}

export function listConnectors(ctx: Ctx): void {
  const q = ctx.url.searchParams;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') as string)) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: connectors.length, connectors });
}

export function listCapabilities(ctx: Ctx): void {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

/** An unknown connector or capability is a decision "not allowed" with its reason, not a 404. */
export async function checkCapability(s: State, ctx: Ctx): Promise<void> {
  readKey(ctx, false);
  const body = await readJsonObject(ctx.req);
  if (!s.opts.ignoreUnknownFields) onlyFields(body, ['connectorId', 'capability', 'environment']);
  const connectorId = text(body, 'connectorId', 2, 120);
  const cap = text(body, 'capability', 2, 120);
  const env = environment(body, 'environment', 'sandbox');
  const c = connector(connectorId);
  const known = capability(cap);
  let reason = 'CAPABILITY_OFFERED: the connector offers this capability';
  if (!c) reason = 'CONNECTOR_NOT_FOUND: no connector with this id in the catalog';
  else if (!known) reason = 'CAPABILITY_NOT_FOUND: no capability with this id in the catalog';
  else if (!c.capabilities.includes(cap))
    reason = 'CAPABILITY_NOT_OFFERED: the connector does not offer this capability';
  const allowed = Boolean(c && known && c.capabilities.includes(cap));
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

function view(c: Connection): Record<string, unknown> {
  return { ...c, capabilities: c.capabilities.map((x) => ({ ...x })) };
}

/** The list is served from an index that trails writes by listLagMs (a Firestore-like eventual query). */
export function listConnections(s: State, ctx: Ctx, tenant: string): void {
  const now = Date.now();
  const connections = [...s.connections.values()]
    .filter((x) => x.tenant === tenant && x.indexedAt <= now)
    .map((x) => view(x.conn));
  ok(ctx, { tenant, count: connections.length, connections });
}

function activate(s: State, tenant: string, c: Connection): void {
  c.state = 'ACTIVE';
  c.nextStep = 'NONE';
  c.updateTime = new Date().toISOString();
  publish(s, { type: 'connection.activated', connectionId: c.id, state: c.state, environment: c.environment });
  enqueue(s, tenant, 'connection.activated', view(c));
}

export async function createConnection(s: State, ctx: Ctx, tenant: string): Promise<void> {
  const key = readKey(ctx, true) as string;
  const body = await readJsonObject(ctx.req);
  if (!s.opts.ignoreUnknownFields) onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const input = {
    connectorId: text(body, 'connectorId', 2, 120),
    environment: environment(body, 'environment'),
    scopeLabel: text(body, 'scopeLabel', 2, 120),
    capabilities: textList(body, 'capabilities', 1, 24, 2, 120),
  };
  const r = once(s.idem, tenant, key, 'connections.create', input, () => {
    const c = connector(input.connectorId);
    if (!c)
      throw new ApiError(
        'not_found',
        'Connector not found.',
        `connectorId: ${input.connectorId}`,
        'Compare the identifier with GET /connectors.',
      );
    const refused = input.capabilities.filter((x) => !c.capabilities.includes(x));
    if (refused.length > 0) {
      throw new ApiError(
        'capability_denied',
        'A capability is not released for this connection.',
        `not offered by ${c.id}: ${refused.join(', ')}`,
        'Have the capability released.',
      );
    }
    const now = new Date();
    const conn: Connection = {
      id: autoId(),
      connectorId: input.connectorId,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: 'CREATING',
      capabilities: input.capabilities.map((id) => {
        const cap = capability(id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'AWAIT_ACTIVATION',
      createdAt: now.toISOString(),
      updateTime: now.toISOString(),
    };
    s.connections.set(conn.id, { tenant, conn, indexedAt: now.getTime() + s.opts.listLagMs });
    record(s, ctx, tenant, 'connection.create', `connections/${conn.id}`);
    const data = view(conn);
    publish(s, { type: 'connection.created', connectionId: conn.id, state: conn.state, environment: conn.environment });
    enqueue(s, tenant, 'connection.created', data);
    later(s, s.opts.activationMs, () => activate(s, tenant, conn));
    return data;
  });
  ok(ctx, r.data, { idempotencyKey: key, replayed: r.replayed });
}

export async function createKey(s: State, ctx: Ctx): Promise<void> {
  readKey(ctx, false);
  const body = await readJsonObject(ctx.req);
  if (!s.opts.ignoreUnknownFields) onlyFields(body, ['operation']);
  const operation = text(body, 'operation', 2, 80);
  const idempotencyKey = `${operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 40)}:${randomBytes(16).toString('hex')}`;
  ok(ctx, { idempotencyKey, operation, expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString() });
}

export function info(s: State, ctx: Ctx, tenant: string): void {
  ok(ctx, {
    tenant,
    clientId: ctx.clientId,
    environment: 'sandbox',
    project: 'poplar-sandbox',
    purpose: 'conformance',
    owner: 'platform-team@poplar.example',
    tokenLifetimeSec: s.opts.tokenTtlSec,
  });
}
