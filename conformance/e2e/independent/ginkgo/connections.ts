// Connections: created `pending`, moved to `ready` after `activationMs` by a background task (a Celery
// worker in the team's own stack). `paused` exists (a paused connection refuses nothing here, but it is a
// state the API can report); GINKGO_PAUSE_AFTER_MS pauses ready connections to try clients against it.

import { capabilityById, connectorById } from './catalog.ts';
import { type Call, HttpError, ok, parseJsonObject } from './http-kit.ts';
import { ENVIRONMENTS, validateBody } from './validation.ts';

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: 'pending' | 'ready' | 'paused';
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

const NEXT_STEP = { pending: 'wait_for_ready', ready: 'none', paused: 'contact_support' } as const;

export interface ConnectionDeps {
  activationMs: number;
  pauseAfterMs?: number;
  emit: (tenant: string, event: string, connection: Connection) => void;
  audit: (tenant: string, action: string, actor: string, id: string, requestId: string) => void;
  timers: Set<NodeJS.Timeout>;
}

export class ConnectionStore {
  next = 42;
  byTenant = new Map<string, Connection[]>();
  deps: ConnectionDeps;

  constructor(deps: ConnectionDeps) {
    this.deps = deps;
  }

  list(call: Call): void {
    const tenant = call.tenant ?? '';
    const connections = this.byTenant.get(tenant) ?? [];
    ok(call, { tenant, count: connections.length, connections });
  }

  /** The body of POST /connections, validated; returns the new connection (the idempotency layer answers). */
  create(call: Call, text: string): Connection {
    const body = validateBody(parseJsonObject(text), {
      connectorId: { type: 'string', required: true, min: 2, max: 120 },
      environment: { type: 'string', required: true, enum: ENVIRONMENTS },
      scopeLabel: { type: 'string', required: true, min: 2, max: 120 },
      capabilities: { type: 'array', required: true, min: 1, max: 24, items: { type: 'string', min: 2, max: 120 } },
    });
    const connectorId = String(body.connectorId);
    const connector = connectorById(connectorId);
    if (!connector)
      throw new HttpError(
        'not_found',
        'Connector not found',
        `body.connectorId: no connector '${connectorId}'`,
        'list connectors with GET /api/public/v1/connectors',
      );
    const wanted = [...new Set(body.capabilities as string[])];
    const denied = wanted.filter((c) => !capabilityById(c) || !connector.capabilities.includes(c));
    if (denied.length > 0)
      throw new HttpError(
        'capability_denied',
        'Capability not released for this connection',
        `body.capabilities: ${denied.join(', ')} not offered by connector ${connectorId}`,
        'have the capability released',
      );
    const now = new Date().toISOString();
    const conn: Connection = {
      id: String(this.next++),
      connectorId,
      environment: String(body.environment),
      scopeLabel: String(body.scopeLabel),
      state: 'pending',
      capabilities: wanted.map((c) => {
        const cap = capabilityById(c);
        return {
          capability: c,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: NEXT_STEP.pending,
      createdAt: now,
      updatedAt: now,
    };
    const tenant = call.tenant ?? '';
    const list = this.byTenant.get(tenant) ?? [];
    list.push(conn);
    this.byTenant.set(tenant, list);
    this.deps.audit(tenant, 'connection.create', call.clientId ?? 'unknown', conn.id, call.requestId);
    this.deps.emit(tenant, 'connection.created', conn);
    this.later(this.deps.activationMs, () => this.move(tenant, conn, 'ready'));
    return { ...conn, capabilities: conn.capabilities.map((c) => ({ ...c })) };
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.deps.timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.deps.timers.add(t);
  }

  private move(tenant: string, conn: Connection, state: 'ready' | 'paused'): void {
    conn.state = state;
    conn.nextStep = NEXT_STEP[state];
    conn.updatedAt = new Date().toISOString();
    this.deps.audit(tenant, `connection.${state}`, 'system', conn.id, 'worker');
    this.deps.emit(tenant, `connection.${state}`, conn);
    const pause = this.deps.pauseAfterMs;
    if (state === 'ready' && pause !== undefined) this.later(pause, () => this.move(tenant, conn, 'paused'));
  }
}
