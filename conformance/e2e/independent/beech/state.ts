// One state shared by both listening ports (the main and the alternate base address).
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { formatTime } from './http-kit.ts';

export interface BeechOptions {
  /** Rack::Attack throttle: calls per access (client, tenant, environment) per window. */
  rateLimit?: number;
  windowMs?: number;
  /** Delay before a pending connection becomes active. */
  activationMs?: number;
  /** Sidekiq retries of a failed delivery (backoff 1 s, 3 s, 9 s...). */
  maxRetries?: number;
  /** Leave the signing key out of a replayed registration ("issued exactly once"). */
  redactKeyOnReplay?: boolean;
  /** db/seeds.rb: one demo connection per released tenant at start (invented test data). */
  seedDemo?: boolean;
  /** config.time_zone: minutes east of UTC for every time served (default 0, `Z`). */
  utcOffset?: number;
  /** Audit log and delivery log oldest first (`order(:id)`), instead of newest first. */
  oldestFirst?: boolean;
  /** Kaminari headers only (X-Total, X-Next-Page...), no Link header. */
  noLinkHeader?: boolean;
  /** Refuse calls without Service-Version (400). */
  serviceVersionRequired?: boolean;
}

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  created_at: string;
  updated_at: string;
  tenant: string;
}

export interface StreamEvent {
  seq: number;
  name: string;
  data: Record<string, unknown>;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  active: boolean;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  payload: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  retryOf: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface AuditEntry {
  id: string;
  seq: number;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  requestId: string;
  idempotencyKey: string | null;
  changes: Record<string, unknown>;
  createdAt: string;
  created_at: string;
  digest: string;
}

export interface Beech {
  options: BeechOptions & { rateLimit: number; windowMs: number; activationMs: number; maxRetries: number };
  ids: Record<string, number>;
  connections: Connection[];
  events: StreamEvent[];
  listeners: Set<(e: StreamEvent) => void>;
  webhooks: Webhook[];
  deliveries: Delivery[];
  audit: Map<string, AuditEntry[]>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  auditKey: { privateKey: KeyObject; publicKeyPem: string; keyId: string };
  timers: Set<NodeJS.Timeout>;
}

export function createState(options: BeechOptions): Beech {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    options: { rateLimit: 600, windowMs: 60_000, activationMs: 400, maxRetries: 3, ...defined(options) },
    ids: {},
    connections: [],
    events: [],
    listeners: new Set(),
    webhooks: [],
    deliveries: [],
    audit: new Map(),
    tokens: new Map(),
    auditKey: {
      privateKey,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      keyId: 'beech-audit-2026',
    },
    timers: new Set(),
  };
}

function defined(o: BeechOptions): BeechOptions {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as BeechOptions;
}

/** Active Record style: one integer sequence per table, served as a string. */
export function nextId(s: Beech, table: string): string {
  s.ids[table] = (s.ids[table] ?? 0) + 1;
  return String(s.ids[table]);
}

/** A time as this deployment serves it (see utcOffset). */
export function stamp(s: Beech, ms = Date.now()): string {
  return formatTime(ms, s.options.utcOffset ?? 0);
}

/** setTimeout that close() can cancel. */
export function later(s: Beech, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    s.timers.delete(t);
    fn();
  }, ms);
  s.timers.add(t);
}

export function publish(s: Beech, name: string, data: Record<string, unknown>): StreamEvent {
  const e = { seq: s.events.length + 1, name, data };
  s.events.push(e);
  for (const l of s.listeners) l(e);
  return e;
}
