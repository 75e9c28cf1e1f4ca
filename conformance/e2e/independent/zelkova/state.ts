// The shared state behind both base addresses (one "database"), and the start options.
import type { AuditLog } from './audit.ts';
import type { AuthState } from './auth.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { StatusStream } from './stream.ts';
import type { WebhookWorker } from './webhooks.ts';

export interface ZelkovaOptions {
  /** Sliding-log limit per access, tenant and environment (default 600 calls per 60 s). */
  rateLimit?: number;
  windowMs?: number;
  /** Access-token lifetime in seconds (default 900). */
  tokenTtlSec?: number;
  /** Streams opened with x-service-tenant show that tenant's messages only, numbered per tenant. */
  tenantStreams?: boolean;
  /** Streams opened without a cursor start at message 1 instead of live. */
  streamFromStart?: boolean;
  /** How a message is written: `event:` line (default), data only, or pretty JSON over several data lines. */
  sseStyle?: 'named' | 'plain' | 'pretty';
  /** The outbox relay's delay (ms) between a commit and its stream message. */
  relayDelayMs?: number;
  /** GET /connections reads a replica this far (ms) behind the primary. */
  replicaLagMs?: number;
  /** Time from `pending` to `active` (default 300 ms). */
  activationMs?: number;
  /** A replayed webhook registration leaves out the signing key (issued once, even to a replay). */
  redactKeyOnReplay?: boolean;
  /** Refusals after validation (404, 409 capability_denied) are stored under the key and replayed (Stripe). */
  storeRefusals?: boolean;
  /** Idempotency keys unique per access instead of per access and tenant. */
  keyScope?: 'tenant' | 'client';
  /** How long an idempotency record (and an issued key) lives (default 24 h). */
  keyTtlMs?: number;
  /** The delivery worker polls this often instead of being woken at once. */
  workerPollMs?: number;
  /** Query parameters a route does not know are refused with 400 (PostgREST refuses unknown columns). */
  strictQuery?: boolean;
  /** The authorization server runs on its own origin ({auth_url}), as Supabase's GoTrue does. */
  separateAuth?: boolean;
  /** Fixed ports (default: any free port). */
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
}

export interface State {
  options: ZelkovaOptions;
  auth: AuthState;
  idem: IdempotencyStore;
  limiter: RateLimiter;
  stream: StatusStream;
  hooks: WebhookWorker;
  audit: AuditLog;
  connections: Connection[];
  timers: Set<NodeJS.Timeout>;
  /** Origin of the main base address, for the token endpoint named in the self-description. */
  origin: string;
  /** Origin of the authorization server (the main origin unless separateAuth). */
  authOrigin: string;
}
