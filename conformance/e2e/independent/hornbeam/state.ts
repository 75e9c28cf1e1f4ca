// The one in-memory state both listeners share (a Durable Object in spirit: one writer, ordered).
import { randomBytes } from 'node:crypto';

export interface Options {
  /** Calls per window for one access, tenant and environment (also per address on public routes). */
  rateLimit?: number;
  /** Calls per window per client address on public routes and before authentication (0: as rateLimit). */
  publicRateLimit?: number;
  windowMs?: number;
  /** A continuously refilled token bucket instead of fixed windows. */
  tokenBucket?: boolean;
  /** How long a stream stays open before the edge closes it (clients resume with Last-Event-ID). */
  streamLifetimeMs?: number;
  heartbeatMs?: number;
  tokenTtlSeconds?: number;
  /** Delay before a connection turns live. */
  activationMs?: number;
  /** Require Service-Version on every call (400 without it). */
  serviceVersionRequired?: boolean;
  /** A stream read with a bearer token and a released tenant gets that tenant's own numbered feed. */
  tenantStreams?: boolean;
  /** Largest audit page; a larger limit is refused 400 (the document states the maximum). */
  auditMaxLimit?: number;
  /** Delay before a queued webhook delivery is first attempted. */
  queueDelayMs?: number;
  port?: number;
  altPort?: number;
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
  tenant: string;
}

export interface StreamEvent {
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
  active: boolean;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: { at: string; responseStatus: number | null; outcome: string }[];
  createdAt: string;
  retriggerOf?: string;
}

export interface AuditEntry {
  id: string;
  seq: number;
  at: string;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  requestId: string;
  idempotencyKey?: string;
}

export interface State {
  opts: Required<Omit<Options, 'port' | 'altPort'>>;
  clientId: string;
  clientSecret: string;
  /** tenants the client is released for; `foreign` exists but is not released. */
  tenants: string[];
  knownTenants: string[];
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Connection[];
  /** Feeds by name: 'public' (no tenant data), and `tenant:<id>` when tenant streams are on. */
  feeds: Map<string, StreamEvent[]>;
  streamListeners: Set<(feed: string, e: StreamEvent) => void>;
  webhooks: Webhook[];
  deliveries: Delivery[];
  audit: Map<string, AuditEntry[]>;
  timers: Set<NodeJS.Timeout>;
}

export function createState(o: Options = {}): State {
  return {
    opts: {
      rateLimit: o.rateLimit ?? 1200,
      windowMs: o.windowMs ?? 10_000,
      publicRateLimit: o.publicRateLimit ?? 0,
      tokenBucket: o.tokenBucket ?? false,
      streamLifetimeMs: o.streamLifetimeMs ?? 12_000,
      heartbeatMs: o.heartbeatMs ?? 2_000,
      tokenTtlSeconds: o.tokenTtlSeconds ?? 600,
      activationMs: o.activationMs ?? 300,
      serviceVersionRequired: o.serviceVersionRequired ?? false,
      tenantStreams: o.tenantStreams ?? false,
      auditMaxLimit: o.auditMaxLimit ?? 500,
      queueDelayMs: o.queueDelayMs ?? 0,
    },
    clientId: 'hornbeam-edge-ci',
    clientSecret: `hbs_${randomBytes(18).toString('base64url')}`,
    tenants: ['kiln-roasters', 'quay-noodles'],
    knownTenants: ['kiln-roasters', 'quay-noodles', 'moor-bakery'],
    tokens: new Map(),
    connections: [],
    feeds: new Map([['public', []]]),
    streamListeners: new Set(),
    webhooks: [],
    deliveries: [],
    audit: new Map(),
    timers: new Set(),
  };
}

/** Runs `fn` later unless the deployment closes first. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
