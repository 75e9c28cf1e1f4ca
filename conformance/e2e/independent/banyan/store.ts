// banyan's event store: every write appends one event; the connection list, the status stream and the
// per-tenant audit log are projections of it. Positions are global, consecutive, from 1.
import { canonical, sha256, uuidv7 } from './util.ts';

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
  state: string;
  capabilities: ConnectionCapability[];
  nextStep: string;
  createdAt: string;
}
export interface StoredEvent {
  position: number;
  eventId: string;
  kind: 'connection.created' | 'connection.state_changed';
  tenant: string;
  occurredAt: string;
  data: { connection: Connection; previousState?: string };
}
export interface AuditEntry {
  sequence: number;
  position: number;
  eventId: string;
  kind: string;
  tenant: string;
  connectionId: string;
  occurredAt: string;
  change: Record<string, unknown>;
  previousHash: string;
  hash: string;
}

export const GENESIS_HASH = '0'.repeat(64);

/** The entry's own hash: SHA-256 over the previous hash, then the canonical JSON of the entry without `hash`. */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return sha256(entry.previousHash + canonical(entry));
}

type Listener = (e: StoredEvent) => void;

export class EventStore {
  events: StoredEvent[] = [];
  connections = new Map<string, { tenant: string; connection: Connection }>();
  audit = new Map<string, AuditEntry[]>();
  listeners = new Set<Listener>();
  /** Read models (list, audit) catch up this long after an append, as an asynchronous projector would. */
  projectionLagMs = 0;
  lagTimers = new Set<NodeJS.Timeout>();

  append(kind: StoredEvent['kind'], tenant: string, data: StoredEvent['data']): StoredEvent {
    const event: StoredEvent = {
      position: this.events.length + 1,
      eventId: uuidv7(),
      kind,
      tenant,
      occurredAt: new Date().toISOString(),
      // A frozen copy: later state changes must not rewrite history.
      data: structuredClone(data),
    };
    this.events.push(event);
    if (this.projectionLagMs <= 0) this.project(event);
    else {
      // Same delay for every event: timers fire in append order, so the projections stay in order.
      const t = setTimeout(() => {
        this.lagTimers.delete(t);
        this.project(event);
      }, this.projectionLagMs);
      this.lagTimers.add(t);
    }
    for (const l of this.listeners) l(event);
    return event;
  }

  /** Folds one event into the read models (connections, audit chain). */
  private project(e: StoredEvent): void {
    const c = structuredClone(e.data.connection);
    this.connections.set(c.id, { tenant: e.tenant, connection: c });
    const log = this.audit.get(e.tenant) ?? [];
    const prev = log.at(-1);
    const change: Record<string, unknown> =
      e.kind === 'connection.created'
        ? {
            connectorId: c.connectorId,
            environment: c.environment,
            scopeLabel: c.scopeLabel,
            capabilities: c.capabilities.map((x) => x.capability),
            state: c.state,
          }
        : { from: e.data.previousState ?? null, to: c.state };
    const base = {
      sequence: log.length + 1,
      position: e.position,
      eventId: e.eventId,
      kind: e.kind,
      tenant: e.tenant,
      connectionId: c.id,
      occurredAt: e.occurredAt,
      change,
      previousHash: prev ? prev.hash : GENESIS_HASH,
    };
    log.push({ ...base, hash: entryHash(base) });
    this.audit.set(e.tenant, log);
  }

  connectionsOf(tenant: string): Connection[] {
    return [...this.connections.values()].filter((x) => x.tenant === tenant).map((x) => x.connection);
  }

  /** Events after `position` (the last number a stream client read). */
  after(position: number): StoredEvent[] {
    return this.events.slice(Math.max(0, position));
  }
}

interface KeyRecord {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

/** Idempotency records per tenant and exact key (case-sensitive), kept 12 hours. */
export class IdempotencyStore {
  static TTL_MS = 12 * 3600 * 1000;
  records = new Map<string, KeyRecord>();
  issued = new Map<string, { operation: string; expiresAt: number }>();

  get(tenant: string, key: string): KeyRecord | undefined {
    const r = this.records.get(`${tenant}\n${key}`);
    if (r && r.expiresAt < Date.now()) {
      this.records.delete(`${tenant}\n${key}`);
      return undefined;
    }
    return r;
  }

  put(tenant: string, key: string, fingerprint: string, status: number, data: unknown): void {
    const expiresAt = this.issued.get(`${tenant}\n${key}`)?.expiresAt ?? Date.now() + IdempotencyStore.TTL_MS;
    this.records.set(`${tenant}\n${key}`, { fingerprint, status, data: structuredClone(data), expiresAt });
  }

  issue(tenant: string, operation: string): { idempotencyKey: string; operation: string; expiresAt: string } {
    const key = `bny_${uuidv7()}`;
    const expiresAt = Date.now() + IdempotencyStore.TTL_MS;
    this.issued.set(`${tenant}\n${key}`, { operation, expiresAt });
    return { idempotencyKey: key, operation, expiresAt: new Date(expiresAt).toISOString() };
  }
}
