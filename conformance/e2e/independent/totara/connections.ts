// totara: connections as a Prisma model (cuid id, createdAt/updatedAt, state enum PENDING -> ACTIVE) with the
// creation's side effects in one "transaction": audit entry, stream message, webhook jobs, and a delayed BullMQ job
// that activates the connection after transitionMs.
import type { AuditLog } from './audit.ts';
import { capabilityById, connectorById } from './catalog.ts';
import type { EventLog } from './events.ts';
import { ConnectionCreateBody, validate } from './schema.ts';
import { type Connection, type Ctx, HttpError, principalOf, type Result, type Settings } from './types.ts';
import { cuid, now } from './util.ts';
import type { Webhooks } from './webhooks.ts';

const NEXT_STEP = {
  PENDING: 'await_provider_activation',
  ACTIVE: 'start_calling_capabilities',
};

export class Connections {
  private readonly rows = new Map<string, Connection>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private readonly settings: Settings;
  private readonly events: EventLog;
  private readonly audit: AuditLog;
  private readonly webhooks: Webhooks;

  constructor(settings: Settings, events: EventLog, audit: AuditLog, webhooks: Webhooks) {
    this.settings = settings;
    this.events = events;
    this.audit = audit;
    this.webhooks = webhooks;
  }

  /** The row as served: the interface's fields first, Prisma's tenantId and updatedAt after. */
  view(c: Connection): Record<string, unknown> {
    return {
      id: c.id,
      connectorId: c.connectorId,
      environment: c.environment,
      scopeLabel: c.scopeLabel,
      state: c.state,
      capabilities: c.capabilities.map((x) => ({ ...x })),
      nextStep: c.nextStep,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      tenantId: c.tenant,
    };
  }

  list(ctx: Ctx): Result {
    const tenant = principalOf(ctx).tenant;
    const connections = [...this.rows.values()]
      .filter((c) => c.tenant === tenant)
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
      .map((c) => this.view(c));
    return { data: { tenant, count: connections.length, connections } };
  }

  get(ctx: Ctx): Result {
    const c = this.rows.get(ctx.params.connectionId ?? '');
    if (!c || c.tenant !== principalOf(ctx).tenant)
      throw new HttpError(404, 'not_found', `Connection ${ctx.params.connectionId} not found`, 'FST_ERR_NOT_FOUND');
    return { data: this.view(c) };
  }

  create(ctx: Ctx): Result {
    const err = validate(ConnectionCreateBody, ctx.body);
    if (err) throw new HttpError(400, 'invalid_request', err, 'FST_ERR_VALIDATION');
    const body = ctx.body as { connectorId: string; environment: string; scopeLabel: string; capabilities: string[] };
    const connector = connectorById(body.connectorId);
    if (!connector)
      throw new HttpError(404, 'not_found', `Connector ${body.connectorId} not found`, 'FST_ERR_NOT_FOUND');
    const denied = body.capabilities.filter((c) => !capabilityById(c) || !connector.capabilities.includes(c));
    if (denied.length)
      throw new HttpError(
        409,
        'capability_denied',
        `Capability ${denied.join(', ')} is not released for connector ${connector.id}`,
        'FST_CAPABILITY_DENIED',
      );
    const at = now();
    const tenant = principalOf(ctx).tenant;
    const row: Connection = {
      id: cuid(),
      tenant,
      connectorId: connector.id,
      environment: body.environment,
      scopeLabel: body.scopeLabel,
      state: 'PENDING',
      capabilities: body.capabilities.map((id) => {
        const cap = capabilityById(id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: NEXT_STEP.PENDING,
      createdAt: at,
      updatedAt: at,
    };
    this.rows.set(row.id, row);
    const view = this.view(row);
    this.audit.append(tenant, ctx, 'connection.create', 'Connection', row.id, { state: row.state });
    this.events.publish(tenant, 'connection.created', view);
    this.webhooks.emit(tenant, 'connection.created', view);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.activate(row);
    }, this.settings.transitionMs);
    this.timers.add(timer);
    return { data: view };
  }

  private activate(row: Connection): void {
    row.state = 'ACTIVE';
    row.nextStep = NEXT_STEP.ACTIVE;
    row.updatedAt = now();
    const view = this.view(row);
    this.audit.append(row.tenant, undefined, 'connection.activate', 'Connection', row.id, { state: row.state });
    this.events.publish(row.tenant, 'connection.updated', view);
    this.webhooks.emit(row.tenant, 'connection.updated', view);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
