// The "PostgreSQL" of tamarack: one object holding the tables, shared by both listeners. Every write a
// request makes happens synchronously after its body is read, which stands in for one SERIALIZABLE
// transaction (no two same-key requests can interleave).
import { randomBytes } from 'node:crypto';

export interface Options {
  /** Calls per window per access, tenant and environment (fixed window; HAProxy stick-table counter). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds. */
  tokenTtlSec?: number;
  /** Service-Version mandatory (428 is not an Errors status for it: 400 invalid_request when missing). */
  serviceVersionRequired?: boolean;
  /** A replayed webhook registration repeats the signing key (default: left out, "issued exactly once"). */
  keyOnReplay?: boolean;
  /** How often the outbox relay polls for due deliveries. */
  relayMs?: number;
  /** First retry wait of a failed delivery (doubles each attempt). */
  retryBaseMs?: number;
  /** Time from creation to the state "live". */
  activationMs?: number;
  /** The audit log lists oldest first (default newest first). */
  auditOldestFirst?: boolean;
  /** HAProxy `timeout tunnel`: an open stream is closed after this many ms (0: never). */
  streamMaxMs?: number;
  /** Kafka consumer lag: a stream message reaches open streams this many ms after it was written. */
  streamLagMs?: number;
  /** First offset of every partition (a partition whose older records retention already removed). */
  offsetBase?: number;
  /** A creation refused after validation (404, 409 capability_denied) is stored and replayed under its key. */
  replayRefusals?: boolean;
  /** Fixed client secret (default: random per start). */
  clientSecret?: string;
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
  stateChangedAt: string;
}

export interface Receiver {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  state: 'enabled' | 'deleted';
  signingKey: string;
  createdAt: string;
}

export interface Attempt {
  number: number;
  at: string;
  outcome: 'delivered' | 'failed';
  status?: number;
  error?: string;
  trigger: 'event' | 'retry' | 'requeue';
}

/** One row of the webhook_outbox table: a delivery and its attempts. */
export interface OutboxRow {
  id: string;
  tenant: string;
  receiverId: string;
  event: string;
  eventId: string;
  body: string;
  status: 'pending' | 'delivered' | 'retrying' | 'dead';
  dueAt: number;
  retries: number;
  trigger: Attempt['trigger'];
  attempts: Attempt[];
  createdAt: string;
}

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
  scopes: string[];
  purpose: string;
  owner: string;
  expiresAt: string;
}

export interface Store {
  options: Required<Omit<Options, 'clientSecret'>>;
  clients: Map<string, Client>;
  tenants: Set<string>;
  connections: Connection[];
  receivers: Map<string, Receiver>;
  outbox: OutboxRow[];
}

export function createStore(options: Options = {}): Store {
  return {
    options: {
      rateLimit: options.rateLimit ?? 1000,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSec: options.tokenTtlSec ?? 600,
      serviceVersionRequired: options.serviceVersionRequired ?? false,
      keyOnReplay: options.keyOnReplay ?? false,
      relayMs: options.relayMs ?? 150,
      retryBaseMs: options.retryBaseMs ?? 1000,
      activationMs: options.activationMs ?? 1200,
      auditOldestFirst: options.auditOldestFirst ?? false,
      streamMaxMs: options.streamMaxMs ?? 0,
      streamLagMs: options.streamLagMs ?? 0,
      offsetBase: options.offsetBase ?? 0,
      replayRefusals: options.replayRefusals ?? false,
    },
    clients: new Map(),
    tenants: new Set(),
    connections: [],
    receivers: new Map(),
    outbox: [],
  };
}

let lastMs = 0;
let seq = 0;
/** UUIDv7 (RFC 9562): time-ordered, as a PostgreSQL uuid column with a uuidv7() default hands them out. */
export function uuidv7(): string {
  const now = Date.now();
  seq = now === lastMs ? seq + 1 : 0;
  lastMs = now;
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = 0x70 | ((seq >> 8) & 0x0f);
  b[7] = seq & 0xff;
  b[8] = 0x80 | ((b[8] ?? 0) & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
