// One in-memory state shared by both listeners (main and alternate base address), like the single
// database behind both gateway routes of the real service.
import type { ServerResponse } from 'node:http';
import type { ApiError } from './http-kit.ts';

export type HazelOptions = {
  /** calls per window per access, tenant and environment (default 120) */
  rateLimit?: number;
  /** window length in ms (default 30 000) */
  windowMs?: number;
  /** HAZEL_SEPARATE_ALT_WINDOW: the alternate address counts in a window of its own */
  separateAltWindow?: boolean;
  /** HAZEL_VERSION_REQUIRED: Service-Version mandatory on authenticated calls (1) or on every call (all) */
  versionRequired?: 'no' | 'authenticated' | 'all';
  /** HAZEL_BEARER_ONLY_POST: the token endpoint accepts client_secret_post only */
  secretPostOnly?: boolean;
  /** HAZEL_AUDIT_JCS: the audit proof declares this algorithm name (1: `sha256`) and canonicalization RFC8785 */
  auditJcs?: string;
  /** HAZEL_STRICT_FIELDS: unknown body fields are refused (400) instead of ignored */
  strictFields?: boolean;
  /** HAZEL_DELIVERY_LOG_SINCE_CURRENT: the delivery log (added in 2026-07-01) is 404 for 2026-06-12 callers */
  deliveryLogSinceCurrent?: boolean;
  /** HAZEL_RECORD_REFUSALS: refusals of a keyed call recorded under the key and replayed: 'decided' (404,
   * 409 capability_denied) or 'all' (every refusal of the keyed operation, validation included) */
  recordRefusals?: 'none' | 'decided' | 'all';
  /** HAZEL_ZONE_OFFSET_MINUTES: times written with this UTC offset (default 0: `Z`) */
  zoneOffsetMinutes?: number;
  /** HAZEL_ANONYMOUS_RATE: calls without a valid token are counted per client address, with the headers */
  anonymousRate?: boolean;
  /** HAZEL_PING_ON_REGISTER: a signed webhook.ping delivery right after registration */
  pingOnRegister?: boolean;
  /** HAZEL_SPRING_PAGES: audit log and delivery log as Spring Data pages (`content`, `totalElements`, …) */
  springPages?: boolean;
  /** HAZEL_UNKNOWN_CONNECTOR_400: a creation naming an unknown connector is refused 400 (not 404) */
  unknownConnector400?: boolean;
  /** time from provisioning to active (default 1500 ms) */
  activationMs?: number;
  /** messages kept for resumption (default 1000) */
  streamRetention?: number;
};

export type ConnectionRecord = {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
};

export type IdemRecord = {
  fingerprint: string;
  status: number;
  data: unknown;
  /** HAZEL_RECORD_REFUSALS: the recorded refusal */
  error?: ApiError;
  storedAt: number;
  expiresAt: number;
};

export type StreamMessage = { seq: number; event: string; data: string };

export type Webhook = {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  status: 'active' | 'deleted';
  createdAt: string;
};

export type Delivery = {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: { at: string; responseStatus: number | null; error?: string }[];
  redeliveryOf: string | null;
  createdAt: string;
};

export type AuditEntry = Record<string, unknown> & { seq: number; hash: string; previousHash: string };

export type State = {
  options: Required<HazelOptions>;
  clientId: string;
  clientSecret: string;
  /** origin of the authorization server ({auth_url}), set once it listens */
  authOrigin: string;
  /** tenants the client is released for; foreign ones exist but are not released */
  released: Set<string>;
  known: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  rate: Map<string, { windowStart: number; count: number }>;
  connections: Map<string, { tenant: string; record: ConnectionRecord }>;
  idempotency: Map<string, IdemRecord>;
  issuedKeys: Map<string, { operation: string; expiresAt: number }>;
  stream: { seq: number; kept: StreamMessage[]; clients: Set<ServerResponse> };
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery>;
  audit: Map<string, AuditEntry[]>;
  timers: Set<NodeJS.Timeout>;
};

export function createState(options: HazelOptions, tenants: { released: string[]; foreign: string[] }): State {
  return {
    options: {
      rateLimit: options.rateLimit ?? 120,
      windowMs: options.windowMs ?? 30_000,
      separateAltWindow: options.separateAltWindow ?? false,
      versionRequired: options.versionRequired ?? 'no',
      secretPostOnly: options.secretPostOnly ?? false,
      auditJcs: options.auditJcs ?? '',
      strictFields: options.strictFields ?? false,
      deliveryLogSinceCurrent: options.deliveryLogSinceCurrent ?? false,
      recordRefusals: options.recordRefusals ?? 'none',
      zoneOffsetMinutes: options.zoneOffsetMinutes ?? 0,
      anonymousRate: options.anonymousRate ?? false,
      pingOnRegister: options.pingOnRegister ?? false,
      springPages: options.springPages ?? false,
      unknownConnector400: options.unknownConnector400 ?? false,
      activationMs: options.activationMs ?? 1500,
      streamRetention: options.streamRetention ?? 1000,
    },
    clientId: 'hazel-partner-ci',
    authOrigin: '',
    clientSecret: 'hz-sandbox-5f2c81d7a94e3b60c1f8e27d',
    released: new Set(tenants.released),
    known: new Set([...tenants.released, ...tenants.foreign]),
    tokens: new Map(),
    rate: new Map(),
    connections: new Map(),
    idempotency: new Map(),
    issuedKeys: new Map(),
    stream: { seq: 0, kept: [], clients: new Set() },
    webhooks: new Map(),
    deliveries: new Map(),
    audit: new Map(),
    timers: new Set(),
  };
}

/** setTimeout that close() can cancel. */
export function later(state: State, ms: number, fn: () => void): void {
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    fn();
  }, ms);
  state.timers.add(timer);
}
