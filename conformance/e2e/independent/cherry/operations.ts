// The controllers of the interface's catalog and connection endpoints (Ash actions behind JSON controllers).
import { type AuditLog, record } from './audit.ts';
import {
  CAPABILITIES,
  CONNECTORS,
  capability,
  capabilityView,
  connector,
  connectorView,
  PROVIDERS,
  providerView,
} from './catalog.ts';
import { ApiError, type Conn, isoNow } from './conn.ts';
import { canonical, type IdempotencyStore, KEY_TTL_MS, once, readKey } from './idempotency.ts';
import { type ConnectionRow, connectionView, ENVIRONMENTS, nextId, type Store } from './store.ts';
import { type Hub, publish } from './stream.ts';
import { oneOf, refuseUnknown, text, textList } from './validate.ts';
import { emit, type Queue } from './webhooks.ts';

export interface Ctx {
  store: Store;
  idem: IdempotencyStore;
  audit: AuditLog;
  hub: Hub;
  queue: Queue;
  activationMs: number;
  /** Default page[size] of the audit log and the delivery log. */
  pageSize: number;
  timers: Set<NodeJS.Timeout>;
}

export interface Call {
  conn: Conn;
  tenant: string;
  clientId: string;
  body: () => Record<string, unknown>;
}

function filtered<T extends Record<string, unknown>>(
  conn: Conn,
  rows: T[],
  filters: Record<string, (row: T, v: string) => boolean>,
): T[] {
  for (const k of conn.query.keys()) {
    if (!(k in filters))
      throw new ApiError('invalid_request', `unknown query parameter ${k}`, { pointer: `/query/${k}` });
  }
  return rows.filter((row) =>
    Object.entries(filters).every(([k, f]) => !conn.query.has(k) || f(row, conn.query.get(k) ?? '')),
  );
}

export function listProviders({ conn }: Call): unknown {
  const providers = filtered(conn, PROVIDERS.map(providerView), { category: (p, v) => p.category === v });
  return { count: providers.length, providers };
}

export function listConnectors({ conn }: Call): unknown {
  const connectors = filtered(conn, CONNECTORS.map(connectorView), {
    capability: (c, v) => (c.capabilities as string[]).includes(v),
    providerId: (c, v) => c.providerId === v,
    category: (c, v) => c.category === v,
  });
  return { count: connectors.length, connectors };
}

export function listCapabilities({ conn }: Call): unknown {
  filtered(conn, [], {});
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES.map(capabilityView) };
}

export function checkCapability({ body }: Call): unknown {
  const b = body();
  refuseUnknown(b, ['connectorId', 'capability', 'environment']);
  const connectorId = text(b, 'connectorId', 2, 120) ?? '';
  const cap = text(b, 'capability', 2, 120) ?? '';
  const environment = oneOf(b, 'environment', ENVIRONMENTS, false) ?? 'sandbox';
  const con = connector(connectorId);
  const known = capability(cap);
  let allowed = false;
  let reason: string;
  if (!con) reason = `connector ${connectorId} is not in the catalog`;
  else if (!known) reason = `capability ${cap} is not in the catalog`;
  else if (!con.capabilities.includes(cap)) reason = `connector ${connectorId} does not offer ${cap}`;
  else {
    allowed = true;
    reason = `connector ${connectorId} offers ${cap} in ${environment}`;
  }
  const decision = {
    connectorId,
    capability: cap,
    allowed,
    critical: known?.critical ?? false,
    idempotencyRequired: known?.idempotencyRequired ?? false,
    reason,
  };
  return { decision, environment };
}

export function listConnections({ conn, tenant }: Call, ctx: Ctx): unknown {
  filtered(conn, [], {});
  const connections = ctx.store.connections.filter((c) => c.tenant === tenant).map(connectionView);
  return { tenant, count: connections.length, connections };
}

function activate(ctx: Ctx, row: ConnectionRow): void {
  const t = setTimeout(() => {
    ctx.timers.delete(t);
    row.state = 'active';
    row.nextStep = 'none';
    row.updatedAt = isoNow();
    publish(ctx.hub, 'connection.activated', {
      connectionId: row.id,
      connectorId: row.connectorId,
      environment: row.environment,
      state: row.state,
    });
    emit(ctx.queue, ctx.store, row.tenant, 'connection.activated', connectionView(row));
  }, ctx.activationMs);
  ctx.timers.add(t);
}

export function createConnection(call: Call, ctx: Ctx): void {
  const { conn, tenant, clientId } = call;
  const key = readKey(conn, true);
  once(ctx.idem, `${clientId}/${tenant}`, conn, key, () => {
    const b = call.body();
    refuseUnknown(b, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
    const connectorId = text(b, 'connectorId', 2, 120) ?? '';
    const environment = oneOf(b, 'environment', ENVIRONMENTS, true) ?? 'sandbox';
    const scopeLabel = text(b, 'scopeLabel', 2, 120) ?? '';
    const caps = textList(b, 'capabilities', 1, 24, 2, 120);
    const con = connector(connectorId);
    if (!con) throw new ApiError('not_found', `connector ${connectorId} does not exist`, { pointer: '/connectorId' });
    const denied = caps.find((c) => !con.capabilities.includes(c));
    if (denied !== undefined) {
      throw new ApiError('capability_denied', `capability ${denied} is not released for connector ${connectorId}`, {
        hint: 'have the capability released, or choose one the connector lists',
      });
    }
    const now = isoNow();
    const row: ConnectionRow = {
      id: nextId(ctx.store, tenant, 'connections'),
      tenant,
      connectorId,
      environment,
      scopeLabel,
      state: 'pending',
      capabilities: caps.map((c) => {
        const k = capability(c);
        return { capability: c, critical: k?.critical ?? false, idempotencyRequired: k?.idempotencyRequired ?? false };
      }),
      nextStep: 'await_activation',
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.connections.push(row);
    record(ctx.audit, ctx.store, tenant, {
      at: now,
      actor: clientId,
      action: 'connection.create',
      resourceType: 'connection',
      resourceId: row.id,
      idempotencyKey: key,
      changes: { connectorId, environment, scopeLabel, capabilities: caps },
    });
    publish(ctx.hub, 'connection.created', { connectionId: row.id, connectorId, environment, state: row.state });
    emit(ctx.queue, ctx.store, tenant, 'connection.created', connectionView(row));
    activate(ctx, row);
    return connectionView(row);
  });
}

export function issueKey(call: Call, ctx: Ctx): void {
  const { conn, tenant, clientId } = call;
  const key = readKey(conn, false);
  once(ctx.idem, `${clientId}/${tenant}`, conn, key, () => {
    const b = call.body();
    refuseUnknown(b, ['operation']);
    const operation = text(b, 'operation', 2, 80) ?? '';
    const stamp = Date.now().toString(36);
    const idempotencyKey = `${operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 60)}:${stamp}:${canonical(Math.random()).slice(2, 14)}`;
    return { idempotencyKey, operation, expiresAt: isoNow(Date.now() + KEY_TTL_MS) };
  });
}
