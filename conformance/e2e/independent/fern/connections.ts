// Connections, capability checks and issued keys: the tenant-scoped writes of the interface.
import { randomUUID } from 'node:crypto';
import type { AuditLog } from './audit.ts';
import { capability, connector } from './catalog.ts';
import { ApiError, isoNow } from './http-util.ts';
import type { Stream } from './stream.ts';
import type { Errors } from './validate.ts';
import { env, noExtra, obj, str, strList } from './validate.ts';
import type { Webhooks } from './webhooks.ts';

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

export function flags(name: string) {
  const c = capability(name);
  return { critical: c?.critical ?? false, idempotencyRequired: c?.idempotencyRequired ?? false };
}

/** POST /capabilities: an unknown connector is a 404; a capability it does not list is "not allowed". */
export function decide(body: unknown, errors: Errors) {
  const b = obj(body, errors);
  const connectorId = str(b, 'connectorId', 2, 120, errors);
  const cap = str(b, 'capability', 2, 120, errors);
  const environment = env(b, errors, false) ?? 'sandbox';
  errors.throwIfAny();
  const c = connector(connectorId ?? '');
  if (!c || cap === undefined)
    throw new ApiError(
      'not_found',
      'Connector not found',
      `connectorId: no connector ${connectorId}`,
      'List connectors with GET /api/public/v1/connectors',
    );
  const allowed = c.capabilities.includes(cap);
  const reason = allowed
    ? `offered: ${c.name} provides ${cap} in ${environment}`
    : `not_offered: ${c.name} does not provide ${cap}`;
  return { decision: { connectorId: c.id, capability: cap, allowed, ...flags(cap), reason }, environment };
}

export function validateCreation(body: unknown, errors: Errors) {
  const b = obj(body, errors);
  noExtra(b, ['connectorId', 'environment', 'scopeLabel', 'capabilities'], errors);
  const connectorId = str(b, 'connectorId', 2, 120, errors);
  const environment = env(b, errors, true);
  const scopeLabel = str(b, 'scopeLabel', 2, 120, errors);
  const caps = strList(b, 'capabilities', errors, 24);
  errors.throwIfAny();
  return {
    connectorId: connectorId ?? '',
    environment: environment ?? '',
    scopeLabel: scopeLabel ?? '',
    caps: caps ?? [],
  };
}

export class Connections {
  byTenant = new Map<string, Connection[]>();
  timers = new Set<NodeJS.Timeout>();
  activationMs: number;
  stream: Stream;
  webhooks: Webhooks;
  audit: AuditLog;
  constructor(stream: Stream, webhooks: Webhooks, audit: AuditLog, activationMs: number) {
    this.stream = stream;
    this.webhooks = webhooks;
    this.audit = audit;
    this.activationMs = activationMs;
  }

  list(tenant: string) {
    return this.byTenant.get(tenant) ?? [];
  }

  /** Checks the booking against the catalog, then stores, audits and announces the connection. */
  create(tenant: string, actor: string, requestId: string, input: ReturnType<typeof validateCreation>) {
    const c = connector(input.connectorId);
    if (!c)
      throw new ApiError(
        'not_found',
        'Connector not found',
        `body.connectorId: no connector ${input.connectorId}`,
        'List connectors with GET /api/public/v1/connectors',
      );
    const missing = input.caps.filter((cap) => !c.capabilities.includes(cap));
    if (missing.length > 0) {
      throw new ApiError(
        'capability_denied',
        'Capability not released for this connection',
        `not offered by ${c.name}: ${missing.join(', ')}`,
        'Have the capability released, or book only capabilities the connector lists',
      );
    }
    const now = isoNow();
    const conn: Connection = {
      id: randomUUID(),
      connectorId: c.id,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: 'provisioning',
      capabilities: input.caps.map((cap) => ({ capability: cap, ...flags(cap) })),
      nextStep: 'wait_for_activation',
      createdAt: now,
      updatedAt: now,
    };
    const list = this.list(tenant);
    list.push(conn);
    this.byTenant.set(tenant, list);
    this.audit.append(tenant, actor, 'connection.create', 'connection', conn.id, requestId, {
      connectorId: conn.connectorId,
      environment: conn.environment,
      scopeLabel: conn.scopeLabel,
    });
    this.announce(tenant, 'connection.requested', conn);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      conn.state = 'active';
      conn.nextStep = 'none';
      conn.updatedAt = isoNow();
      this.announce(tenant, 'connection.ready', conn);
    }, this.activationMs);
    this.timers.add(timer);
    return structuredClone(conn);
  }

  private announce(tenant: string, kind: string, conn: Connection) {
    this.stream.publish(kind, {
      connectionId: conn.id,
      connectorId: conn.connectorId,
      environment: conn.environment,
      state: conn.state,
    });
    this.webhooks.emit(tenant, kind, { connection: structuredClone(conn) });
  }

  close() {
    for (const t of this.timers) clearTimeout(t);
  }
}
