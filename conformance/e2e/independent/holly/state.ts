// The one state both listeners share: accesses, tenants, connections, idempotency records, the stream
// backlog, webhooks and their delivery log. The audit trees live in audit.ts.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';

export interface Options {
  /** Token bucket capacity per access (X-RateLimit-Limit). */
  rateLimit?: number;
  /** Time to refill a whole bucket, in ms. */
  windowMs?: number;
  /** ms until a created connection turns ACTIVE. */
  activationMs?: number;
  /** Require Service-Version on every authenticated call (a legal choice: "whether mandatory: not shown"). */
  serviceVersionRequired?: boolean;
  /** Leave the signing key out of a replayed webhook registration. */
  redactKeyOnReplay?: boolean;
  /** Audit hashes as lowercase hex instead of proto3 JSON bytes (base64). */
  auditHex?: boolean;
  /** int64 fields of the audit proof (leafIndex, treeSize) as JSON numbers instead of proto3 JSON strings. */
  auditInt64Numbers?: boolean;
  /** A connection's id is its resource name (`connections/c…`), as AIP-122 resources are referred to. */
  resourceNameIds?: boolean;
  /** Token lifetime in seconds. */
  tokenTtl?: number;
}

export interface Connection {
  id: string;
  name: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updateTime: string;
}

export interface IdemRecord {
  fingerprint: string;
  status: number;
  data: unknown;
  replayData?: unknown;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createTime: string;
}

export interface Attempt {
  attempt: number;
  trigger: 'AUTOMATIC' | 'MANUAL';
  time: string;
  httpStatus?: number;
  outcome: 'SUCCEEDED' | 'FAILED';
  error?: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  body: string;
  state: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attempts: Attempt[];
  createTime: string;
}

export interface StreamMessage {
  id: number;
  event: string;
  data: string;
}

export interface Access {
  clientId: string;
  secret: string;
  tenants: string[];
  purpose: string;
  owner: string;
  expiresAt: string;
}

export interface State {
  opts: Required<Options>;
  clients: Map<string, Access>;
  knownTenants: Set<string>;
  tokens: Map<string, { clientId: string; expires: number }>;
  buckets: Map<string, { tokens: number; at: number }>;
  connections: Connection[];
  idem: Map<string, IdemRecord>;
  issuedKeys: Map<string, { operation: string; expiresAt: string }>;
  stream: StreamMessage[];
  bus: EventEmitter;
  webhooks: Map<string, Webhook>;
  deliveries: Delivery[];
  timers: Set<NodeJS.Timeout>;
}

/** A short random id segment (base32-like, lowercase: legal in an AIP-122 resource name). */
export function rid(prefix: string): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(16);
  let s = '';
  for (const b of bytes) s += alphabet[b % 32];
  return `${prefix}${s}`;
}

/** Runs fn later and forgets the timer when it ran (close() clears the rest). */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}

export const TENANTS = {
  main: 'tenants-bistro-north',
  other: 'tenants-bistro-south',
  foreign: 'tenants-bistro-closed',
};

export function createState(options: Options = {}): State {
  const opts: Required<Options> = {
    rateLimit: 600,
    windowMs: 60_000,
    activationMs: 300,
    serviceVersionRequired: false,
    redactKeyOnReplay: false,
    tokenTtl: 900,
    auditHex: false,
    auditInt64Numbers: false,
    resourceNameIds: false,
    ...options,
  };
  const expiresAt = new Date(Date.now() + 90 * 24 * 3600 * 1000).toISOString();
  const state: State = {
    opts,
    clients: new Map([
      [
        'holly-conformance',
        {
          clientId: 'holly-conformance',
          secret: process.env.HOLLY_CLIENT_SECRET ?? 'hly-secret-local-only-3f9a1c',
          tenants: [TENANTS.main, TENANTS.other],
          purpose: 'conformance runs',
          owner: 'platform-team@holly.example',
          expiresAt,
        },
      ],
    ]),
    knownTenants: new Set(Object.values(TENANTS)),
    tokens: new Map(),
    buckets: new Map(),
    connections: [],
    idem: new Map(),
    issuedKeys: new Map(),
    stream: [],
    bus: new EventEmitter(),
    webhooks: new Map(),
    deliveries: [],
    timers: new Set(),
  };
  state.bus.setMaxListeners(0);
  return state;
}
