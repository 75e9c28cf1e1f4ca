// One in-memory state shared by both listeners (what a JPA repository layer would hold).
import type { LarchConfig } from './options.ts';

/** Snowflake-style long ids (ms since a custom epoch, shifted, plus a sequence), rendered as strings. */
let lastMs = 0;
let seq = 0;
export function nextId(): string {
  const ms = Date.now() - 1_700_000_000_000;
  if (ms === lastMs) seq += 1;
  else {
    lastMs = ms;
    seq = 0;
  }
  return (BigInt(ms) * 4096n + BigInt(seq)).toString();
}

export type Connection = {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
};

export type Webhook = {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  keyId: string;
  status: string;
  createdAt: string;
};

export type Attempt = { number: number; at: string; httpStatus: number | null; outcome: string; durationMs: number };

export type Delivery = {
  id: string;
  tenant: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: unknown;
  status: string;
  attempts: Attempt[];
  redeliveryOf: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
};

export type AuditEntry = {
  id: string;
  sequence: number;
  tenant: string;
  occurredAt: string;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: { type: string; id: string };
  requestId: string | null;
  idempotencyKey: string | null;
  details: Record<string, unknown>;
};

export type StoredResponse = { fingerprint: string; status: number; data: unknown; expiresAt: number };

export type Token = { clientId: string; expiresAt: number; environment: string };

export type Client = { secret: string; tenants: string[] };

export type State = {
  config: LarchConfig;
  clients: Map<string, Client>;
  knownTenants: Set<string>;
  tokens: Map<string, Token>;
  connections: Connection[];
  webhooks: Webhook[];
  deliveries: Delivery[];
  audit: AuditEntry[];
  idempotency: Map<string, StoredResponse>;
  windows: Map<string, { start: number; count: number }>;
  timers: Set<ReturnType<typeof setTimeout>>;
  closed: boolean;
};

export function createState(
  config: LarchConfig,
  clientId: string,
  clientSecret: string,
  tenants: string[],
  foreign: string,
): State {
  return {
    config,
    clients: new Map([[clientId, { secret: clientSecret, tenants }]]),
    knownTenants: new Set([...tenants, foreign]),
    tokens: new Map(),
    connections: [],
    webhooks: [],
    deliveries: [],
    audit: [],
    idempotency: new Map(),
    windows: new Map(),
    timers: new Set(),
    closed: false,
  };
}

/** setTimeout tracked so close() leaves no timer behind. */
export function later(state: State, ms: number, fn: () => void): void {
  if (state.closed) return;
  const t = setTimeout(() => {
    state.timers.delete(t);
    if (!state.closed) fn();
  }, ms);
  state.timers.add(t);
}
