// The one state both base addresses share (the team's "repository layer", in memory).

import type { KeyObject } from 'node:crypto';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';

export interface WisteriaOptions {
  /** Calls per token in one fixed window (Bucket4j-style refill of the whole bucket). */
  rateLimit?: number;
  windowMs?: number;
  /** How long a connection stays PENDING before it turns ACTIVE. */
  activationMs?: number;
  /** Token lifetime in seconds. */
  tokenTtlSeconds?: number;
  /** Service-Version required on every call (428-free: a missing one is 400 invalid_request). */
  serviceVersionRequired?: boolean;
  /** Audit log listed oldest first by default (sort=seq,asc). */
  auditOldestFirst?: boolean;
  /** Query parameters an operation does not take are refused with 400 invalid_request. */
  strictQuery?: boolean;
  /** Entry hash over the canonical JSON without the link, with previousHash appended. */
  auditHashSuffix?: boolean;
  /** Largest page of the audit and delivery logs; a larger size or limit is capped silently (Spring's max-page-size). */
  maxPageSize?: number;
  /** Token endpoint client authentication: both methods (default) or client_secret_post only. */
  tokenAuth?: 'both' | 'post';
  /** Ends every stream after this many ms (0: never), as an SseEmitter timeout does. */
  sseTimeoutMs?: number;
  /** Times written with this fixed UTC offset in minutes and microseconds (undefined: UTC, milliseconds, Z). */
  timeOffsetMinutes?: number | undefined;
  /** The delivery log and redelivery answer 404 to a caller asking for 2026-06-12 (they came with 2026-07-01). */
  deliveryLogSinceCurrent?: boolean;
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
  updatedAt: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  status: string;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  payload: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  redeliveryOf: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
}

export interface AuditEntry {
  seq: number;
  at: string;
  tenant: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  detail: Record<string, unknown>;
  previousHash: string;
  hash: string;
}

export interface StreamMessage {
  id: number;
  event: string;
  data: string;
}

export interface Feed {
  messages: StreamMessage[];
  listeners: Set<(m: StreamMessage) => void>;
}

export interface State {
  options: Required<Omit<WisteriaOptions, 'timeOffsetMinutes'>>;
  clientId: string;
  clientSecret: string;
  /** Tenants the client is released for; `foreign` exists but is not released. */
  released: Set<string>;
  known: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  windows: Map<string, { start: number; used: number }>;
  connections: Map<string, Connection[]>;
  idempotency: Map<string, StoredResponse>;
  feeds: Map<string, Feed>;
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery[]>;
  audit: Map<string, AuditEntry[]>;
  signer: { kid: string; privateKey: KeyObject; publicKey: KeyObject };
  timers: Set<ReturnType<typeof setTimeout>>;
  servers: Server[];
}

export const TENANTS = { tenant: 'wisteria-harbour', otherTenant: 'wisteria-meadow', foreignTenant: 'wisteria-ridge' };

export function createState(options: WisteriaOptions = {}): State {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    options: {
      rateLimit: options.rateLimit ?? 1000,
      windowMs: options.windowMs ?? 60_000,
      activationMs: options.activationMs ?? 300,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
      serviceVersionRequired: options.serviceVersionRequired ?? false,
      auditOldestFirst: options.auditOldestFirst ?? false,
      strictQuery: options.strictQuery ?? false,
      auditHashSuffix: options.auditHashSuffix ?? false,
      maxPageSize: options.maxPageSize ?? 500,
      tokenAuth: options.tokenAuth ?? 'both',
      sseTimeoutMs: options.sseTimeoutMs ?? 0,
      deliveryLogSinceCurrent: options.deliveryLogSinceCurrent ?? false,
    },
    clientId: 'wisteria-ci',
    clientSecret: `wst_${randomBytes(24).toString('base64url')}`,
    released: new Set([TENANTS.tenant, TENANTS.otherTenant]),
    known: new Set([TENANTS.tenant, TENANTS.otherTenant, TENANTS.foreignTenant]),
    tokens: new Map(),
    windows: new Map(),
    connections: new Map(),
    idempotency: new Map(),
    feeds: new Map(),
    webhooks: new Map(),
    deliveries: new Map(),
    audit: new Map(),
    signer: { kid: `audit-${randomBytes(6).toString('hex')}`, privateKey, publicKey },
    timers: new Set(),
    servers: [],
  };
}

/** A timer the state owns, cleared on close (activations, webhook retries). */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
