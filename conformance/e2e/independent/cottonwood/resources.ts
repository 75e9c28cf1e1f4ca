// The catalog, capability decisions and the tenant's connections. A creation fans out to the status
// stream, the webhook queue and the audit log, which is what Elysia's `onAfterHandle` hooks would do.
import type { AuditLog } from './audit.ts';
import { connectorOr404 } from './catalog.ts';
import { type Ctx, HttpError, nanoid, ok, type Rec, readJson } from './http.ts';
import type { IdempotencyStore } from './idempotency.ts';
import { capabilityOf, ENVIRONMENTS, publicConnection, type Store } from './state.ts';
import type { StatusStream } from './stream.ts';
import { t, validate } from './validate.ts';
import type { DeliveryQueue } from './webhook-queue.ts';

const name = () => t.String({ minLength: 2, maxLength: 120 });
export const connectionBody = t.Object({
  connectorId: name(),
  environment: t.Enum(ENVIRONMENTS),
  scopeLabel: name(),
  capabilities: t.Array(name(), { minItems: 1, maxItems: 24 }),
});

export class ResourceRoutes {
  private store: Store;
  private idem: IdempotencyStore;
  private stream: StatusStream;
  private queue: DeliveryQueue;
  private audit: AuditLog;
  constructor(store: Store, idem: IdempotencyStore, stream: StatusStream, queue: DeliveryQueue, audit: AuditLog) {
    this.store = store;
    this.idem = idem;
    this.stream = stream;
    this.queue = queue;
    this.audit = audit;
  }

  auditPage(ctx: Ctx, tenant: string, audit: AuditLog) {
    ok(ctx, audit.page(ctx, tenant));
  }

  list(ctx: Ctx, tenant: string) {
    const list = this.store.connections.filter((c) => c.tenant === tenant).map(publicConnection);
    ok(ctx, { tenant, count: list.length, connections: list });
  }

  /** The provider's confirmation, simulated: pending becomes active, told on every channel. */
  private activateLater(tenant: string, conn: Rec) {
    const timer = setTimeout(() => {
      this.store.timers.delete(timer);
      conn.state = 'active';
      conn.nextStep = 'none';
      const shown = publicConnection(conn);
      this.stream.publish(tenant, 'connection.activated', { connectionId: conn.id, connection: shown });
      this.queue.dispatch(tenant, 'connection.activated', { connection: shown });
      this.audit.recordSystem(tenant, 'connection.activated', 'connection', String(conn.id));
    }, this.store.options.activateAfterMs);
    this.store.timers.add(timer);
  }

  async create(ctx: Ctx, tenant: string) {
    const key = this.idem.requireKey(ctx);
    const body = validate<Rec>(connectionBody, await readJson(ctx));
    const result = this.idem.run(ctx, key, body, () => {
      const connector = connectorOr404(body.connectorId);
      const missing = (body.capabilities as string[]).filter((c) => !connector.capabilities.includes(c));
      if (missing.length > 0) {
        throw new HttpError(
          409,
          'capability_denied',
          'Capability is not released for this connection',
          `${missing.join(', ')} not offered by ${connector.id}`,
          'Book the capability or choose another connector',
        );
      }
      const caps = [...new Set(body.capabilities as string[])].map((id) => {
        const c = capabilityOf(id);
        return { capability: id, critical: c?.critical ?? false, idempotencyRequired: c?.idempotencyRequired ?? false };
      });
      const conn: Rec = {
        tenant,
        id: nanoid(),
        connectorId: connector.id,
        environment: body.environment,
        scopeLabel: body.scopeLabel,
        // New connections wait for the provider's confirmation; the team's states: pending, active, paused.
        state: 'pending',
        capabilities: caps,
        nextStep: 'await_provider_confirmation',
        createdAt: new Date().toISOString(),
      };
      this.store.connections.push(conn);
      const shown = publicConnection(conn);
      this.stream.publish(tenant, 'connection.created', { connectionId: conn.id, connection: shown });
      this.queue.dispatch(tenant, 'connection.created', { connection: shown });
      this.audit.record(ctx, 'connection.created', 'connection', conn.id);
      if (this.store.options.activateAfterMs > 0) this.activateLater(tenant, conn);
      return shown;
    });
    ok(ctx, result.data, result.meta);
  }
}
