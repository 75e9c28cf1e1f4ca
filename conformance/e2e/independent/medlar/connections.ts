// Connections of each tenant (a Prisma model in the original): creation and the lifecycle
// pending -> provisioning -> active, each step published to the tenant's stream, the public stream (without
// tenant data), the tenant's webhooks and the audit log.
import type { AuditLog } from './audit.ts';
import type { Catalog } from './catalog.ts';
import { type EventBus, PUBLIC_SCOPE } from './events.ts';
import type { Environment } from './util.ts';
import { isoNow, nanoid } from './util.ts';
import type { Webhooks } from './webhooks.ts';

export interface Connection {
  id: string;
  connectorId: string;
  environment: Environment;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

interface Deps {
  catalog: Catalog;
  events: EventBus;
  webhooks: Webhooks;
  audit: AuditLog;
  transitionMs: number;
}

const LIFECYCLE: { state: string; nextStep: string }[] = [
  { state: 'pending', nextStep: 'await_provisioning' },
  { state: 'provisioning', nextStep: 'await_activation' },
  { state: 'active', nextStep: 'none' },
];

export class Connections {
  private readonly byTenant = new Map<string, Connection[]>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private readonly deps: Deps;

  constructor(deps: Deps) {
    this.deps = deps;
  }

  list(tenant: string): Connection[] {
    return this.byTenant.get(tenant) ?? [];
  }

  create(
    tenant: string,
    input: { connectorId: string; environment: Environment; scopeLabel: string; capabilities: string[] },
    actor: string,
    requestId: string,
  ): Connection {
    const now = isoNow();
    const first = LIFECYCLE[0] as { state: string; nextStep: string };
    const c: Connection = {
      id: nanoid(),
      connectorId: input.connectorId,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: first.state,
      capabilities: [...new Set(input.capabilities)].map((id) => {
        const cap = this.deps.catalog.capability(id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: first.nextStep,
      createdAt: now,
      updatedAt: now,
    };
    let list = this.byTenant.get(tenant);
    if (!list) {
      list = [];
      this.byTenant.set(tenant, list);
    }
    list.push(c);
    this.deps.audit.record(
      tenant,
      'connection.created',
      actor,
      { type: 'connection', id: c.id },
      {
        connectorId: c.connectorId,
        environment: c.environment,
        scopeLabel: c.scopeLabel,
        state: c.state,
      },
      requestId,
    );
    this.announce(tenant, c, 'connection.created');
    this.schedule(tenant, c, 1);
    return c;
  }

  private schedule(tenant: string, c: Connection, step: number): void {
    const next = LIFECYCLE[step];
    if (!next) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const from = c.state;
      c.state = next.state;
      c.nextStep = next.nextStep;
      c.updatedAt = isoNow();
      this.deps.audit.record(
        tenant,
        'connection.state_changed',
        'system',
        { type: 'connection', id: c.id },
        { from, to: c.state },
        `sys_${nanoid(12)}`,
      );
      this.announce(tenant, c, 'connection.updated');
      this.schedule(tenant, c, step + 1);
    }, this.deps.transitionMs);
    this.timers.add(timer);
  }

  private announce(tenant: string, c: Connection, event: string): void {
    const snapshot = { ...c, capabilities: c.capabilities.map((x) => ({ ...x })) };
    this.deps.events.publish(tenant, event, {
      type: event,
      connectionId: c.id,
      state: c.state,
      at: c.updatedAt,
      connection: snapshot,
    });
    this.deps.events.publish(PUBLIC_SCOPE, 'connection.updated', {
      type: 'status',
      state: c.state,
      environment: c.environment,
      at: c.updatedAt,
    });
    this.deps.webhooks.publish(tenant, event, { connection: snapshot });
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
