// One Durable Object per tenant: its connections, its stream sequence and open streams, its idempotency
// records, webhooks and delivery log, and its audit chain. A Durable Object runs one event at a time, which
// the handlers mirror by doing all of a call's work synchronously once its body has been read.
import { randomUUID } from 'node:crypto';
import { type AppendOnlyBucket, type AuditInput, TenantAudit } from './audit-r2.ts';
import { stamp } from './http-kit.ts';
import { StreamHub } from './stream-hub.ts';
import type { Delivery, DeliveryQueue, Webhook } from './webhook-queue.ts';

export interface ConnectionCapability {
  capability: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: 'pending' | 'ready' | 'paused';
  capabilities: ConnectionCapability[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

export interface IdemRecord {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export const NEXT_STEP = {
  pending: 'await_provider_activation',
  ready: 'start_calling',
  paused: 'contact_support',
};

export interface TenantDeps {
  bucket: AppendOnlyBucket;
  queue: DeliveryQueue;
  publicStream: StreamHub;
  activationMs: number;
  timers: Set<NodeJS.Timeout>;
  utcOffset: number;
}

export class TenantObject {
  tenant: string;
  deps: TenantDeps;
  connections: Connection[] = [];
  stream = new StreamHub();
  idempotency = new Map<string, IdemRecord>();
  webhooks = new Map<string, Webhook>();
  deliveries: Delivery[] = [];
  audit: TenantAudit;

  constructor(tenant: string, deps: TenantDeps) {
    this.tenant = tenant;
    this.deps = deps;
    this.audit = new TenantAudit(tenant, deps.bucket);
  }

  record(input: AuditInput): void {
    this.audit.append(input);
  }

  /** Stores a new connection, announces it, and schedules its activation. */
  createConnection(
    input: { connectorId: string; environment: string; scopeLabel: string; capabilities: ConnectionCapability[] },
    actor: { clientId: string; requestId: string; idempotencyKey: string | null },
  ): Connection {
    const now = stamp(this.deps.utcOffset);
    const c: Connection = {
      id: randomUUID(),
      ...input,
      state: 'pending',
      nextStep: NEXT_STEP.pending,
      createdAt: now,
      updatedAt: now,
    };
    this.connections.push(c);
    this.record({
      action: 'connection.created',
      actor: { type: 'client', id: actor.clientId },
      resource: { type: 'connection', id: c.id },
      requestId: actor.requestId,
      idempotencyKey: actor.idempotencyKey,
      changes: { connectorId: c.connectorId, environment: c.environment, scopeLabel: c.scopeLabel, state: c.state },
    });
    this.emit('connection.created', c);
    const timer = setTimeout(() => {
      this.deps.timers.delete(timer);
      this.transition(c, 'ready');
    }, this.deps.activationMs);
    this.deps.timers.add(timer);
    return c;
  }

  transition(c: Connection, state: Connection['state']): void {
    const from = c.state;
    c.state = state;
    c.nextStep = NEXT_STEP[state];
    c.updatedAt = stamp(this.deps.utcOffset);
    this.record({
      action: 'connection.state_changed',
      actor: { type: 'system', id: 'activation-worker' },
      resource: { type: 'connection', id: c.id },
      requestId: null,
      idempotencyKey: null,
      changes: { from, to: state },
    });
    this.emit(state === 'ready' ? 'connection.ready' : 'connection.state_changed', c);
  }

  /** Status stream (tenant and public) and webhook deliveries for one change of a connection. */
  emit(event: string, c: Connection): void {
    const status = { connectionId: c.id, state: c.state, at: c.updatedAt };
    this.stream.publish(event, { ...status, connectorId: c.connectorId, environment: c.environment });
    this.deps.publicStream.publish(event, status);
    const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
    const body = JSON.stringify({
      id: eventId,
      type: event,
      createdAt: stamp(this.deps.utcOffset),
      tenant: this.tenant,
      data: { connection: c },
    });
    for (const w of this.webhooks.values()) {
      if (!w.events.includes(event)) continue;
      const d = this.deps.queue.newDelivery(w, eventId, event, body, null);
      this.deliveries.push(d);
      this.deps.queue.enqueue(w, d);
    }
  }

  /** Re-sends a logged delivery as a new delivery of the same event (same event id, fresh signature). */
  redeliver(original: Delivery): Delivery | undefined {
    const w = this.webhooks.get(original.webhookId);
    if (w === undefined) return undefined;
    const d = this.deps.queue.newDelivery(w, original.eventId, original.event, original.body, original.id);
    this.deliveries.push(d);
    this.deps.queue.enqueue(w, d);
    return d;
  }

  idemGet(key: string): IdemRecord | undefined {
    const r = this.idempotency.get(key);
    if (r !== undefined && r.expiresAt <= Date.now()) {
      this.idempotency.delete(key);
      return undefined;
    }
    return r;
  }
}
