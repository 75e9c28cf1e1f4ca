// The one state both listeners share: options, clients and tenants, tokens, connections and the stores of
// the other concerns (idempotency, rate windows, stream, webhooks, audit) hung off it.
import { randomBytes } from 'node:crypto';

export interface AspenOptions {
  /** Calls per sliding window per token and tenant (default 600). */
  rateLimit?: number;
  /** Window length in ms (default 60 000). */
  windowMs?: number;
  /** Token lifetime in seconds (default 300). */
  tokenTtlSeconds?: number;
  /** Delay of the review job that activates a connection (default 1000 ms). */
  activationDelayMs?: number;
  /** Heartbeat interval of the stream (default 15 000 ms). */
  heartbeatMs?: number;
  /** Validity of an idempotency key in ms (default 6 h). */
  idempotencyTtlMs?: number;
  /** Fixed client secret (default: random per start). */
  clientSecret?: string;
  /** Other legal choices, off by default: Service-Version required on the public endpoints too. */
  versionEverywhere?: boolean;
  /** Last-Event-ID wins over ?cursor when both are sent (default: cursor wins). */
  lastEventIdWins?: boolean;
  /** Critical capabilities are not released for production without a review (decision not allowed, 409). */
  productionCriticalDenied?: boolean;
  /** An unknown connector on POST /capabilities is decided "not allowed" instead of 404. */
  unknownConnectorDecided?: boolean;
  /** A keyed call refused by the endpoint's own decision (409 capability_denied, 404) is stored and replayed. */
  storeRefusals?: boolean;
  /** An Idempotency-Key on a call that takes none (reads, capability checks) is refused with 400. */
  refuseKeyOnReads?: boolean;
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

export interface TokenInfo {
  clientId: string;
  expiresAt: number;
}

export interface ClientInfo {
  secret: string;
  tenants: string[];
}

export interface State {
  opts: Required<Omit<AspenOptions, 'clientSecret'>>;
  clients: Map<string, ClientInfo>;
  /** Tenants that exist (a tenant not released for the client answers 403). */
  tenants: Set<string>;
  tokens: Map<string, TokenInfo>;
  connections: Connection[];
  timers: Set<NodeJS.Timeout>;
  closed: boolean;
}

export const TENANT = 'aspen-harbour';
export const OTHER_TENANT = 'aspen-ridge';
export const FOREIGN_TENANT = 'aspen-vault';
export const CLIENT_ID = 'aspen-ledger-ci';

export function createState(options: AspenOptions = {}): State {
  const secret = options.clientSecret ?? `aspen_cs_${randomBytes(24).toString('hex')}`;
  return {
    opts: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 300,
      activationDelayMs: options.activationDelayMs ?? 1000,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      idempotencyTtlMs: options.idempotencyTtlMs ?? 6 * 3600_000,
      versionEverywhere: options.versionEverywhere ?? false,
      lastEventIdWins: options.lastEventIdWins ?? false,
      productionCriticalDenied: options.productionCriticalDenied ?? false,
      unknownConnectorDecided: options.unknownConnectorDecided ?? false,
      storeRefusals: options.storeRefusals ?? false,
      refuseKeyOnReads: options.refuseKeyOnReads ?? false,
    },
    clients: new Map([[CLIENT_ID, { secret, tenants: [TENANT, OTHER_TENANT] }]]),
    tenants: new Set([TENANT, OTHER_TENANT, FOREIGN_TENANT]),
    tokens: new Map(),
    connections: [],
    timers: new Set(),
    closed: false,
  };
}

/** A timer the state owns, cleared on close so no job outlives the deployment. */
export function later(state: State, ms: number, fn: () => void): void {
  if (state.closed) return;
  const t = setTimeout(() => {
    state.timers.delete(t);
    if (!state.closed) fn();
  }, ms);
  t.unref();
  state.timers.add(t);
}

export function publicConnection(c: Connection): Record<string, unknown> {
  return {
    id: c.id,
    connectorId: c.connectorId,
    environment: c.environment,
    scopeLabel: c.scopeLabel,
    state: c.state,
    capabilities: c.capabilities.map((x) => ({ ...x })),
    nextStep: c.nextStep,
    createdAt: c.createdAt,
    stateChangedAt: c.stateChangedAt,
  };
}
