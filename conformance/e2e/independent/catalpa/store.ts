// The one state both base addresses share: tokens, connections, idempotency records, webhooks and their
// attempts, the audit chains and the stream's backlog. Timers are tracked so close() leaves nothing behind.
export interface Options {
  /** Calls per window per access, tenant and environment. */
  rateLimit?: number;
  /** Window length in ms (30 s by default). */
  windowMs?: number;
  /** Token lifetime in seconds (900 by default). */
  tokenTtlSeconds?: number;
  /** How long a connection stays PENDING before it is ENABLED. */
  activationMs?: number;
  /** Interval of the stream's :keepalive comments. */
  keepAliveMs?: number;
  /** Make Service-Version mandatory (another legal choice: not shown). */
  serviceVersionRequired?: boolean;
  /** Audit page oldest first instead of newest first. */
  auditOldestFirst?: boolean;
  /** POST /capabilities decides an unknown connector "not allowed" instead of 404 (both legal). */
  unknownConnectorDecision?: boolean;
  /** A resend is a new message (new webhook-id) instead of the same message again. */
  resendNewMessageId?: boolean;
  /** Production connections with a critical capability end DISABLED (held for review) instead of ENABLED. */
  productionDisabled?: boolean;
  /** A key from POST /idempotency-keys is only good for the operation it was issued for. */
  bindIssuedKeys?: boolean;
  /** Also send Standard Webhooks' webhook-signature header (v1,<base64>) beside Signature. */
  standardSignature?: boolean;
  /** Webhook bodies exactly as Standard Webhooks shows them: {type, timestamp, data}, the id in webhook-id only. */
  standardPayload?: boolean;
  /** Under Service-Version 2026-06-12 the delivery log (added in 2026-07-01) answers 404. */
  legacyNoDeliveryLog?: boolean;
  /** A stream opened without a position starts at the oldest retained message instead of now. */
  streamFromStart?: boolean;
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

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  status: string;
  createdAt: string;
}

export interface Attempt {
  id: string;
  webhookId: string;
  messageId: string;
  eventType: string;
  attemptNumber: number;
  trigger: string;
  status: string;
  responseStatus: number | null;
  attemptedAt: string;
  payload: string;
}

export interface IdemRecord {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export interface StreamMessage {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

export interface State {
  options: Required<Pick<Options, 'rateLimit' | 'windowMs' | 'tokenTtlSeconds' | 'activationMs' | 'keepAliveMs'>> &
    Options;
  clientId: string;
  clientSecret: string;
  tenants: { released: string[]; known: string[] };
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Map<string, Connection[]>;
  idem: Map<string, IdemRecord>;
  inFlight: Set<string>;
  issuedKeys: Map<string, { operation: string; expiresAt: string }>;
  webhooks: Map<string, Webhook>;
  attempts: Map<string, Attempt[]>;
  audit: Map<string, Record<string, unknown>[]>;
  messages: StreamMessage[];
  listeners: Set<(m: StreamMessage) => void>;
  rate: Map<string, { windowStart: number; count: number }>;
  timers: Set<ReturnType<typeof setTimeout>>;
  closed: boolean;
}

/** Runs fn later unless the deployment closed meanwhile. */
export function later(state: State, ms: number, fn: () => void): void {
  if (state.closed) return;
  const t = setTimeout(() => {
    state.timers.delete(t);
    if (!state.closed) fn();
  }, ms);
  state.timers.add(t);
}
