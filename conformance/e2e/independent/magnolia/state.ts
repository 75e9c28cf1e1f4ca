// The shared state of both base addresses: connections per tenant, idempotency records, the status
// stream's log. Connections move `pending` -> `active` after a short provisioning delay (Hasura event
// trigger style: every insert and update becomes a stream message and a webhook event).
import { capabilityById } from './catalog.ts';
import { pgTime, uuidv7 } from './util.ts';
import type { CreateBody } from './validate.ts';

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

export interface StreamMessage {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

export interface IdemRecord {
  fingerprint: string;
  status: number;
  data: unknown;
  requestId: string;
}

type Listener = (m: StreamMessage) => void;
type ChangeHook = (tenant: string, topic: string, c: Connection) => void;

export class Store {
  readonly connections = new Map<string, Connection[]>();
  readonly idempotency = new Map<string, IdemRecord>();
  readonly log: StreamMessage[] = [];
  readonly listeners = new Set<Listener>();
  readonly hooks: ChangeHook[] = [];
  readonly timers = new Set<NodeJS.Timeout>();
  readonly activationMs: number;
  readonly hasuraPayloads: boolean;
  constructor(activationMs: number, hasuraPayloads = false) {
    this.activationMs = activationMs;
    this.hasuraPayloads = hasuraPayloads;
  }

  list(tenant: string): Connection[] {
    return this.connections.get(tenant) ?? [];
  }

  /** Inserts a connection (synchronously: same-key calls arriving together see the record at once). */
  create(tenant: string, body: CreateBody): Connection {
    const now = pgTime();
    const c: Connection = {
      id: uuidv7(),
      connectorId: body.connectorId,
      environment: body.environment,
      scopeLabel: body.scopeLabel,
      state: 'pending',
      capabilities: body.capabilities.map((id) => {
        const cap = capabilityById(id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'await_provisioning',
      createdAt: now,
      updatedAt: now,
    };
    this.connections.set(tenant, [...this.list(tenant), c]);
    this.changed(tenant, 'connection.created', c);
    const t = setTimeout(() => {
      this.timers.delete(t);
      c.state = 'active';
      c.nextStep = 'none';
      c.updatedAt = pgTime();
      this.changed(tenant, 'connection.activated', c);
    }, this.activationMs);
    this.timers.add(t);
    return c;
  }

  /** The stream is public: its messages carry the connection's id and state, never tenant data. */
  private changed(tenant: string, topic: string, c: Connection): void {
    const op = topic === 'connection.created' ? 'INSERT' : 'UPDATE';
    const row = { id: c.id, state: c.state, updated_at: c.updatedAt };
    this.publish(
      op === 'INSERT' ? 'connections_insert' : 'connections_update',
      this.hasuraPayloads
        ? { op, table: { schema: 'public', name: 'connections' }, data: { old: null, new: row } }
        : { op, table: 'connections', connectionId: c.id, state: c.state, at: c.updatedAt },
    );
    for (const h of this.hooks) h(tenant, topic, { ...c, capabilities: c.capabilities.map((x) => ({ ...x })) });
  }

  publish(kind: string, data: Record<string, unknown>): void {
    const m: StreamMessage = { seq: this.log.length + 1, kind, data: { eventId: uuidv7(), ...data } };
    this.log.push(m);
    for (const l of this.listeners) l(m);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
