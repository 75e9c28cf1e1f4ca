// All state of a deployment, in memory and shared by both base addresses.
import type { ResolvedOptions } from './options.ts';

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
  modifiedAt: string;
  etag: string;
}
export interface StreamMessage {
  seq: number;
  kind: string;
  at: string;
  payload: Record<string, unknown>;
}
export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: string;
  secret: string;
}
export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  retriggeredFrom: string | null;
  body: string;
}
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}
export interface AuditEntry {
  seq: number;
  id: string;
  at: string;
  tenant: string;
  actor: string;
  action: string;
  entityType: string;
  entityId: string;
  requestId: string;
  prevHash: string;
  hash: string;
}

export class State {
  options: ResolvedOptions;
  baseUrl = '';
  altBaseUrl = '';
  tokens = new Map<string, { clientId: string; expiresAt: number; scope: string }>();
  connections = new Map<string, { tenant: string; visibleAt: number; connection: Connection }>();
  idempotency = new Map<string, IdempotencyRecord>();
  rate = new Map<string, { windowStart: number; count: number }>();
  stream: StreamMessage[] = [];
  subscribers = new Set<(m: StreamMessage) => void>();
  /** Enders of the open stream responses. */
  streams = new Set<() => void>();
  webhooks = new Map<string, Webhook>();
  deliveries = new Map<string, Delivery>();
  audit = new Map<string, AuditEntry[]>();
  timers = new Set<NodeJS.Timeout>();
  closed = false;
  /** Set by the webhook module: fans an event of a tenant out to its receivers. */
  onEvent: (tenant: string, event: string, data: Record<string, unknown>) => void = () => {};

  constructor(options: ResolvedOptions) {
    this.options = options;
  }

  /** Appends a message to the status stream (consecutive numbers from 1) and hands it to live readers. */
  publish(kind: string, payload: Record<string, unknown>) {
    const msg: StreamMessage = { seq: this.stream.length + 1, kind, at: new Date().toISOString(), payload };
    this.stream.push(msg);
    for (const s of this.subscribers) s(msg);
  }

  /** Runs fn after ms unless the deployment closes first. */
  later(ms: number, fn: () => void) {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, ms);
    t.unref?.();
    this.timers.add(t);
  }

  close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const end of [...this.streams]) end();
    this.subscribers.clear();
  }
}
