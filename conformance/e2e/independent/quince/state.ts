// The one state both ports share: tokens, connections, idempotency records, events, webhooks, audit chains.
export interface Options {
  /** Calls per window per client and tenant (Apigee SpikeArrest-style quota). */
  rateLimit?: number;
  windowMs?: number;
  /** How long a connection stays CREATING. */
  activationMs?: number;
  /** Access token lifetime in seconds. */
  tokenTtlSeconds?: number;
  /** How long one stream answer stays open (Cloud Run request timeout). */
  streamMaxMs?: number;
  /** Make Service-Version mandatory (428 is not listed for it: 400 invalid_request when missing). */
  serviceVersionRequired?: boolean;
  /** Delivery retry waits in ms (Pub/Sub-style push retries). */
  retryDelaysMs?: number[];
  /** Report the current version in meta.version even when 2026-06-12 was asked for. */
  pinVersion?: boolean;
  /** Pub/Sub push form: message.data is base64 of the event JSON (as Cloud Pub/Sub sends it). */
  base64Data?: boolean;
  /** Apigee SpikeArrest smoothing: at most one call per windowMs / rateLimit, bursts refused. */
  smoothing?: boolean;
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
  updateTime: string;
}

export interface Stored {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export interface StreamEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
  status: string;
  attempts: { at: string; statusCode: number | null; trigger: string }[];
  createdAt: string;
}

export interface AuditEntry {
  sequence: number;
  id: string;
  time: string;
  tenant: string;
  principal: string;
  method: string;
  resource: string;
  requestId: string;
  previousHash: string;
  hash: string;
}

export interface State {
  opts: Required<Options>;
  clients: Map<string, { secret: string; tenants: string[] }>;
  knownTenants: Set<string>;
  tokens: Map<string, { clientId: string; expires: number }>;
  connections: Map<string, Connection[]>;
  idem: Map<string, Stored>;
  /** Keys issued by POST /idempotency-keys: valid 6 hours from issue, not from first use. */
  issued: Map<string, number>;
  events: StreamEvent[];
  listeners: Set<(e: StreamEvent) => void>;
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery>;
  audit: Map<string, AuditEntry[]>;
  rate: Map<string, number[]>;
  timers: Set<NodeJS.Timeout>;
}

export function createState(o: Options): State {
  return {
    opts: {
      rateLimit: o.rateLimit ?? 20,
      windowMs: o.windowMs ?? 1000,
      activationMs: o.activationMs ?? 300,
      tokenTtlSeconds: o.tokenTtlSeconds ?? 1799,
      streamMaxMs: o.streamMaxMs ?? 60_000,
      serviceVersionRequired: o.serviceVersionRequired ?? false,
      retryDelaysMs: o.retryDelaysMs ?? [1000, 3000],
      pinVersion: o.pinVersion ?? false,
      base64Data: o.base64Data ?? false,
      smoothing: o.smoothing ?? false,
    },
    clients: new Map([
      ['quince-ci', { secret: 'qs-sandbox-5f1c0b7e9a2d4c68', tenants: ['quince-harbor', 'quince-meadow'] }],
    ]),
    knownTenants: new Set(['quince-harbor', 'quince-meadow', 'quince-frost']),
    tokens: new Map(),
    connections: new Map(),
    idem: new Map(),
    issued: new Map(),
    events: [],
    listeners: new Set(),
    webhooks: new Map(),
    deliveries: new Map(),
    audit: new Map(),
    rate: new Map(),
    timers: new Set(),
  };
}

/** setTimeout that close() can cancel. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
