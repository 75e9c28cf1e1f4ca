// Connections: creation publishes connection.created on the event bus, a periodic lifecycle moves each one
// pending -> provisioning -> active (connection.state-changed), and the tenant's list is a projection a bus
// consumer keeps (optionally lagging by listLagMs, as an asynchronous consumer would).
import { type Connector, capabilityById } from './catalog.ts';
import { CONNECTION_EVENTS, type ConnectionEvent, type EventBus } from './eventbus.ts';
import type { Connection, Settings } from './types.ts';
import { isoNow, uuid } from './util.ts';

const LIFECYCLE: { state: string; nextStep: string }[] = [
  { state: 'pending', nextStep: 'await-provisioning' },
  { state: 'provisioning', nextStep: 'await-activation' },
  { state: 'active', nextStep: 'none' },
];

export class ConnectionService {
  /** The write side: every connection by id. */
  readonly byId = new Map<string, Connection>();
  /** The read side: ids per tenant in creation order, filled by the projection consumer. */
  private readonly lists = new Map<string, string[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly bus: EventBus;
  private readonly settings: Settings;
  private closed = false;

  constructor(bus: EventBus, settings: Settings) {
    this.bus = bus;
    this.settings = settings;
    bus.consumer<ConnectionEvent>(CONNECTION_EVENTS, (e) => {
      if (e.type !== 'connection.created') return;
      const project = () => {
        const list = this.lists.get(e.tenantId) ?? [];
        list.push(e.connectionId);
        this.lists.set(e.tenantId, list);
      };
      if (settings.listLagMs > 0) this.later(settings.listLagMs, project);
      else project();
    });
  }

  private later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  create(tenantId: string, connector: Connector, environment: string, scopeLabel: string, caps: string[]): Connection {
    const now = isoNow();
    const first = LIFECYCLE[0] as { state: string; nextStep: string };
    const connection: Connection = {
      id: uuid(),
      tenantId,
      connectorId: connector.id,
      environment,
      scopeLabel,
      state: first.state,
      capabilities: caps.map((c) => {
        const cap = capabilityById(c);
        return {
          capability: c,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: first.nextStep,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    this.byId.set(connection.id, connection);
    this.publish(connection, 'connection.created', null);
    this.later(this.settings.transitionMs, () => this.advance(connection.id));
    return connection;
  }

  private advance(id: string): void {
    const c = this.byId.get(id);
    if (!c) return;
    const index = LIFECYCLE.findIndex((s) => s.state === c.state);
    const next = LIFECYCLE[index + 1];
    if (!next) return;
    const previous = c.state;
    c.state = next.state;
    c.nextStep = next.nextStep;
    c.updatedAt = isoNow();
    c.version += 1;
    this.publish(c, 'connection.state-changed', previous);
    if (LIFECYCLE[index + 2]) this.later(this.settings.transitionMs, () => this.advance(id));
  }

  private publish(c: Connection, type: ConnectionEvent['type'], previousState: string | null): void {
    this.bus.publish<ConnectionEvent>(CONNECTION_EVENTS, {
      eventId: uuid(),
      type,
      tenantId: c.tenantId,
      connectionId: c.id,
      connectorId: c.connectorId,
      environment: c.environment,
      state: c.state,
      previousState,
      at: c.updatedAt,
    });
  }

  list(tenantId: string): Connection[] {
    return (this.lists.get(tenantId) ?? []).map((id) => this.byId.get(id)).filter((c): c is Connection => !!c);
  }

  /** A connection as the interface shows it (the tenant is the header's, not repeated). */
  static view(c: Connection): Record<string, unknown> {
    const { tenantId: _tenant, ...rest } = c;
    return { ...rest, capabilities: c.capabilities.map((x) => ({ ...x })) };
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
