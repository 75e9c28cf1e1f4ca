// Shared types of juniper: one State object is held by both listeners (main and alternate base URL),
// so every request, whichever address it came to, sees the same data.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const EARLIER_VERSION = '2026-06-12';
export const VERSIONS = [CURRENT_VERSION, EARLIER_VERSION];
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

export type JuniperOptions = {
  // Fixed window per access token + tenant (Rack::Attack style).
  rateLimit: number;
  windowMs: number;
  // Time a connection spends in pending_review before it is activated.
  activationDelayMs: number;
  // Leave the signing key out of a replayed webhook registration (still legal: "issued exactly once").
  redactKeyOnReplay: boolean;
  // Answer the earlier version 2026-06-12 without the delivery log (404), instead of serving it.
  deliveryLogCurrentOnly: boolean;
  // Order of the audit log pages: newest first (default) or oldest first.
  auditOldestFirst: boolean;
  // Seconds a bearer token lives.
  tokenTtlSeconds: number;
  // Remember refusals made after validation (404, 409 capability_denied) under their key and replay them
  // (Stripe's rule: a call that started executing is saved); validation refusals are never saved.
  replayRefusals: boolean;
  // Rails' Time.zone: times are written with this offset from UTC (0: "Z").
  utcOffsetMinutes: number;
  // Reads (GET /connections, the audit log) come from a replica this many ms behind the primary.
  replicaLagMs: number;
  // Kaminari's max_per_page for the audit log (a larger `limit` or `per_page` is served this many).
  auditMaxPerPage: number;
  // Stream messages and webhook deliveries leave through a job queue (Sidekiq) this many ms after commit.
  jobDelayMs: number;
  // The audit log also records refused creation attempts (a security trail), with what they asked for.
  auditRefusals: boolean;
  // SSE framing: CRLF line ends, and the JSON pretty-printed over several data: lines.
  sseCrlf: boolean;
  sseMultiline: boolean;
  // No `event:` field (every message is of the default type `message`); the kind is named in the JSON.
  sseKindInData: boolean;
  // The server ends a stream after this many ms (Puma/nginx timeouts); clients resume with Last-Event-ID.
  streamMaxMs: number;
  // Link headers of the audit log as relative references (RFC 8288 allows a URI-Reference).
  relativeLinks: boolean;
  // OpenAPI servers as rswag's swagger_helper writes them: a URL template with a server variable.
  openapiServerVariables: boolean;
  // GET /connections newest first (order(created_at: :desc)) instead of oldest first.
  connectionsNewestFirst: boolean;
  // A re-triggered delivery is another attempt of the same delivery (same id) instead of a new one.
  retrySameDelivery: boolean;
};

export type CapabilityEntry = { capability: string; critical: boolean; idempotencyRequired: boolean };

export type Connection = {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: CapabilityEntry[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
};

export type StoredResponse = { status: number; data: Record<string, unknown>; error?: HttpError };

export type IdempotencyRecord = {
  fingerprint: string;
  response: StoredResponse;
  expiresAt: number;
};

export type StreamMessage = { seq: number; kind: string; payload: Record<string, unknown> };

export type Webhook = {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  active: boolean;
  createdAt: string;
};

export type Delivery = {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  attempt: number;
  retryOf: string | null;
  status: string;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  deliveredAt: string | null;
};

export type AuditEntry = {
  seq: number;
  id: string;
  at: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  requestId: string;
  changes: Record<string, unknown>;
  hash: string;
};

export type State = {
  options: JuniperOptions;
  clients: Map<string, { secret: string; tenants: string[] }>;
  tenants: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Map<string, Connection[]>;
  idempotency: Map<string, IdempotencyRecord>;
  issuedKeys: Map<string, { tenant: string; expiresAt: number }>;
  stream: { seq: number; messages: StreamMessage[]; listeners: Set<(m: StreamMessage) => void> };
  audit: Map<string, AuditEntry[]>;
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery>;
  windows: Map<string, { start: number; count: number }>;
  timers: Set<ReturnType<typeof setTimeout>>;
  closed: boolean;
};

export type Ctx = {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  state: State;
  requestId: string;
  started: number;
  version: string;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  // X-RateLimit-* of this call (empty when it was not counted), sent on every answer.
  rateHeaders: Record<string, string>;
};

// Thrown by handlers to answer with the failure envelope; caught in routes.ts.
export class HttpError extends Error {
  status: number;
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}
