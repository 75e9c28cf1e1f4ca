// The in-memory stand-in for Marten: per-tenant event streams, async projections (connection list, audit
// log with a hash chain) applied after a lag, the SSE outbox with one global consecutive sequence, and the
// idempotency records.
import type { Environment } from './catalog.ts';
import { roundTrip, sha256Hex, shortGuid } from './util.ts';

export interface StoredEvent {
  Sequence: number; // per tenant
  StreamId: string;
  EventType: string;
  Tenant: string;
  At: string;
  Data: Record<string, unknown>;
}

export interface ConnectionCapability {
  capability: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export interface Connection {
  id: string;
  connectorId: string;
  environment: Environment;
  scopeLabel: string;
  state: string;
  capabilities: ConnectionCapability[];
  nextStep: string;
  createdAt: string;
  UpdatedAt: string;
  Version: number;
}

export interface AuditEntry {
  Sequence: number;
  EventId: string;
  EventType: string;
  StreamId: string;
  Actor: string;
  At: string;
  PreviousHash: string;
  Hash: string;
}

export interface StreamMessage {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  data: unknown;
  at: number;
}

export const GENESIS_HASH = '0'.repeat(64);

/** The audit entry's hash: sha256 hex over "PreviousHash|Sequence|EventType|StreamId|At". */
export function auditHash(e: Omit<AuditEntry, 'Hash'>): string {
  return sha256Hex(`${e.PreviousHash}|${e.Sequence}|${e.EventType}|${e.StreamId}|${e.At}`);
}

type Listener = (e: StoredEvent) => void;

export class Store {
  readonly streams = new Map<string, StoredEvent[]>(); // tenant -> events (the tenant's event log)
  readonly connectionsProjection = new Map<string, Connection[]>(); // tenant -> list (async)
  readonly audit = new Map<string, AuditEntry[]>(); // tenant -> chain (async)
  readonly outbox: StreamMessage[] = [];
  readonly idempotency = new Map<string, IdempotencyRecord>();
  private readonly listeners: Listener[] = [];
  private readonly streamListeners = new Set<(m: StreamMessage) => void>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  private readonly lagMs: number;
  constructor(lagMs: number) {
    this.lagMs = lagMs;
  }

  onEvent(l: Listener): void {
    this.listeners.push(l);
  }

  /** Appends to a tenant's stream; projections and the outbox follow after the lag, in order. */
  append(tenant: string, streamId: string, eventType: string, data: Record<string, unknown>, actor: string) {
    const log = this.streams.get(tenant) ?? [];
    this.streams.set(tenant, log);
    const event: StoredEvent = {
      Sequence: log.length + 1,
      StreamId: streamId,
      EventType: eventType,
      Tenant: tenant,
      At: roundTrip(),
      Data: { ...data, Actor: actor },
    };
    log.push(event);
    this.later(this.lagMs, () => this.project(event));
    for (const l of this.listeners) l(event);
    return event;
  }

  /** Live aggregation of one connection's stream (read-your-writes for single entries). */
  aggregate(tenant: string, connectionId: string): Connection | undefined {
    let c: Connection | undefined;
    for (const e of this.streams.get(tenant) ?? []) {
      if (e.StreamId !== connectionId) continue;
      c = applyEvent(c, e);
    }
    return c;
  }

  private project(e: StoredEvent): void {
    if (e.StreamId.startsWith('connection-')) {
      const list = this.connectionsProjection.get(e.Tenant) ?? [];
      this.connectionsProjection.set(e.Tenant, list);
      const id = e.StreamId.slice('connection-'.length);
      const i = list.findIndex((c) => c.id === id);
      const next = applyEvent(i >= 0 ? list[i] : undefined, e);
      if (next) {
        if (i >= 0) list[i] = next;
        else list.push(next);
      }
      const state = e.Data.state;
      if (typeof state === 'string' && next) {
        this.publish('ConnectionStateChanged', {
          ConnectionId: next.id,
          ConnectorId: next.connectorId,
          Environment: next.environment,
          State: state,
          EventType: e.EventType,
          OccurredAt: e.At,
        });
      }
    }
    const chain = this.audit.get(e.Tenant) ?? [];
    this.audit.set(e.Tenant, chain);
    const prev = chain.at(-1);
    const base = {
      Sequence: e.Sequence,
      EventId: shortGuid(),
      EventType: e.EventType,
      StreamId: e.StreamId,
      Actor: String(e.Data.Actor ?? 'system'),
      At: e.At,
      PreviousHash: prev ? prev.Hash : GENESIS_HASH,
    };
    chain.push({ ...base, Hash: auditHash(base) });
  }

  publish(event: string, data: Record<string, unknown>): void {
    const m: StreamMessage = { id: this.outbox.length + 1, event, data };
    this.outbox.push(m);
    for (const l of this.streamListeners) l(m);
  }

  subscribe(l: (m: StreamMessage) => void): () => void {
    this.streamListeners.add(l);
    return () => this.streamListeners.delete(l);
  }

  /** A Hangfire-style scheduled job (no-op after close). */
  later(ms: number, job: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) job();
    }, ms);
    this.timers.add(t);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.streamListeners.clear();
  }
}

function applyEvent(c: Connection | undefined, e: StoredEvent): Connection | undefined {
  const d = e.Data;
  if (e.EventType === 'ConnectionRequested') {
    return {
      id: String(d.id),
      connectorId: String(d.connectorId),
      environment: d.environment as Environment,
      scopeLabel: String(d.scopeLabel),
      state: 'Requested',
      capabilities: d.capabilities as ConnectionCapability[],
      nextStep: String(d.nextStep),
      createdAt: e.At,
      UpdatedAt: e.At,
      Version: 1,
    };
  }
  if (!c) return c;
  return {
    ...c,
    state: typeof d.state === 'string' ? d.state : c.state,
    nextStep: typeof d.nextStep === 'string' ? d.nextStep : c.nextStep,
    UpdatedAt: e.At,
    Version: c.Version + 1,
  };
}
