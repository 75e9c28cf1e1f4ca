// The shared state of both addresses: one in-memory store (what a DbContext over one database would hold).
import { EventEmitter } from 'node:events';

export interface SassafrasOptions {
  /** Calls per window per client and tenant (sliding window). Default 1000. */
  rateLimit?: number;
  /** Window length in milliseconds. Default 60 000. */
  windowMs?: number;
  /** Token lifetime in seconds. Default 300. */
  tokenLifetimeSec?: number;
  /** Pending -> Active after this many ms. Default 300. */
  activationMs?: number;
  /** Require the Service-Version header (a legal choice: the interface does not say). Default false. */
  requireServiceVersion?: boolean;
  /** Leave the signing key out of a replayed webhook registration ("issued exactly once"). */
  redactKeyOnReplay?: boolean;
  /** Ignore unknown body fields, as System.Text.Json binding does by default (the listed ones are still required). */
  ignoreUnknownFields?: boolean;
  /** Refuse 2026-07-01 additions (the delivery log) to callers asking for 2026-06-12 with 404. */
  strictVersions?: boolean;
  /** List the audit log newest first (paged by beforeSequenceNumber). */
  auditNewestFirst?: boolean;
}

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: 'Pending' | 'Active' | 'Suspended';
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}

export interface StreamMessage {
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

export interface Subscription {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  status: 'Active';
}

export interface Delivery {
  id: string;
  subscriptionId: string;
  tenant: string;
  eventId: string;
  eventType: string;
  body: string;
  status: 'Pending' | 'Succeeded' | 'Failed';
  attempts: { at: string; statusCode: number | null; error?: string }[];
  createdAt: string;
  resendOf?: string;
}

export interface AuditEntry {
  sequenceNumber: number;
  id: string;
  occurredAt: string;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  requestId: string;
  idempotencyKey: string | null;
  previousEntryHash: string;
  entryHash: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export const TENANTS = { released: ['sassafras-harbor', 'sassafras-meadow'], notReleased: ['sassafras-quarry'] };

export class Store {
  options: Required<SassafrasOptions>;
  connections: Connection[] = [];
  stream: StreamMessage[] = [];
  subscriptions: Subscription[] = [];
  deliveries: Delivery[] = [];
  audit = new Map<string, AuditEntry[]>();
  idempotency = new Map<string, StoredResponse>();
  /** Keys issued by POST /idempotency-keys: they expire 24 h after issue, used or not. */
  issuedKeys = new Map<string, number>();
  tokens = new Map<string, { clientId: string; expiresAt: number }>();
  bus = new EventEmitter();
  timers = new Set<NodeJS.Timeout>();

  constructor(options: SassafrasOptions = {}) {
    this.options = {
      rateLimit: options.rateLimit ?? 1000,
      windowMs: options.windowMs ?? 60_000,
      tokenLifetimeSec: options.tokenLifetimeSec ?? 300,
      activationMs: options.activationMs ?? 300,
      requireServiceVersion: options.requireServiceVersion ?? false,
      redactKeyOnReplay: options.redactKeyOnReplay ?? false,
      ignoreUnknownFields: options.ignoreUnknownFields ?? false,
      strictVersions: options.strictVersions ?? false,
      auditNewestFirst: options.auditNewestFirst ?? false,
    };
    this.bus.setMaxListeners(0);
  }

  /** Runs later unless the deployment closes first (no timer outlives close()). */
  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  publish(type: string, data: Record<string, unknown>): StreamMessage {
    const msg = { seq: this.stream.length + 1, type, data };
    this.stream.push(msg);
    this.bus.emit('stream', msg);
    return msg;
  }

  clear(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
