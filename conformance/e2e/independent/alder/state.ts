// One in-memory "database" shared by both listeners (main and alternate base address), with Rails-style
// autoincrement counters per table.
import type { ServerResponse } from 'node:http';

export interface AlderOptions {
  /** Bucket capacity (X-RateLimit-Limit); refilled in full over windowMs. */
  rateLimit?: number;
  windowMs?: number;
  /** How long a connection stays `requested` before it turns `active`. */
  activationDelayMs?: number;
  /** Refuse calls without Service-Version (400) instead of serving the current version. */
  serviceVersionRequired?: boolean;
  /** List the audit log newest first instead of oldest first. */
  auditNewestFirst?: boolean;
  port?: number;
  altPort?: number;
}

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  created_by: string;
  updated_at: string;
}

export interface Webhook {
  id: number;
  tenant: string;
  url: string;
  events: string[];
  active: boolean;
  created_by: string;
  created_at: string;
  updated_at: string;
  secret: string;
}

export interface Delivery {
  id: number;
  webhook_id: number;
  tenant: string;
  event: string;
  body: string;
  status: string;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface AuditEntry {
  id: number;
  position: number;
  tenant: string;
  action: string;
  resource_type: string;
  resource_id: string;
  actor: string;
  request_id: string | null;
  created_at: string;
  previous_digest: string;
  digest: string;
}

export interface StreamMessage {
  id: number;
  event: string;
  data: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: { ok: boolean; data?: unknown; error?: unknown };
  expiresAt: number;
}

export interface State {
  options: Required<Omit<AlderOptions, 'port' | 'altPort'>>;
  clients: Map<string, { secret: string; tenants: string[] }>;
  tenants: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  buckets: Map<string, { tokens: number; at: number }>;
  issuedKeys: Map<string, { operation: string; expiresAt: number }>;
  idempotency: Map<string, StoredResponse>;
  connections: Connection[];
  webhooks: Webhook[];
  deliveries: Delivery[];
  audit: Map<string, AuditEntry[]>;
  stream: StreamMessage[];
  listeners: Set<ServerResponse>;
  timers: Set<NodeJS.Timeout>;
  seq: { connection: number; webhook: number; delivery: number; audit: number; stream: number };
}

export function createState(options: AlderOptions, clientId: string, secret: string, tenants: string[]): State {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      activationDelayMs: options.activationDelayMs ?? 300,
      serviceVersionRequired: options.serviceVersionRequired ?? false,
      auditNewestFirst: options.auditNewestFirst ?? false,
    },
    clients: new Map([[clientId, { secret, tenants: tenants.slice(0, 2) }]]),
    tenants: new Set(tenants),
    tokens: new Map(),
    buckets: new Map(),
    issuedKeys: new Map(),
    idempotency: new Map(),
    connections: [],
    webhooks: [],
    deliveries: [],
    audit: new Map(),
    stream: [],
    listeners: new Set(),
    timers: new Set(),
    seq: { connection: 0, webhook: 0, delivery: 0, audit: 0, stream: 0 },
  };
}

/** A timer the shutdown clears, so close() leaves nothing running. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
