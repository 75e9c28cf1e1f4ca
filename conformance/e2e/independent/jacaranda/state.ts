// Shared state of one jacaranda deployment: the catalog, tenants, connections and the id generator.
// Both listeners (main and alternate base address) read and write this one object.
import { randomBytes } from 'node:crypto';

/** Snowflake ids: ms since 2020-01-01 << 22 | worker << 12 | sequence, written as decimal strings. */
const EPOCH = 1577836800000n;
let lastMs = 0n;
let seq = 0n;
export function snowflake(): string {
  let ms = BigInt(Date.now()) - EPOCH;
  if (ms <= lastMs) {
    seq = (seq + 1n) & 0xfffn;
    if (seq === 0n) lastMs += 1n;
    ms = lastMs;
  } else {
    seq = 0n;
  }
  lastMs = ms;
  return ((ms << 22n) | (7n << 12n) | seq).toString();
}

/**
 * How times are written: `millis` (toISOString), `nanos` (Go protojson: nine fraction digits) or `offset`
 * (+02:00, a server in local time). Process-wide: only start.ts sets it (JACARANDA_TIME_STYLE).
 */
let timeStyle = 'millis';
export function setTimeStyle(style: string): void {
  timeStyle = style;
}

export function formatTime(d: Date): string {
  const iso = d.toISOString();
  if (timeStyle === 'nanos') return `${iso.slice(0, 23)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}Z`;
  if (timeStyle === 'offset') return `${new Date(d.getTime() + 7_200_000).toISOString().slice(0, 23)}+02:00`;
  return iso;
}

export function nowIso(): string {
  return formatTime(new Date());
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
}
export interface ConnectionCapability {
  capability: string;
  critical: boolean;
  idempotencyRequired: boolean;
}
export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: ConnectionCapability[];
  nextStep: string;
  createdAt: string;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

// Catalog ids are fixed snowflakes so a restart keeps them; capability ids are their dotted names.
export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true },
  { id: 'tables.read', label: 'Read table plans', critical: false, idempotencyRequired: false },
];

export const PROVIDERS: Provider[] = [
  { id: '1180591620717411303', name: 'Tillwise', category: 'pos', summary: 'Point-of-sale systems for restaurants' },
  { id: '1180591620717411304', name: 'Paylane', category: 'payments', summary: 'Card and wallet payments' },
  { id: '1180591620717411305', name: 'Seatly', category: 'reservations', summary: 'Table reservations' },
];

export const CONNECTORS: Connector[] = [
  {
    id: '1180591620717412001',
    providerId: '1180591620717411303',
    name: 'Tillwise POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: '1180591620717412002',
    providerId: '1180591620717411304',
    name: 'Paylane Checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
  },
  {
    id: '1180591620717412003',
    providerId: '1180591620717411305',
    name: 'Seatly Tables',
    category: 'reservations',
    capabilities: ['tables.read'],
  },
];

export interface Tenant {
  id: string;
  released: boolean;
}

export interface WebhookReceiver {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createTime: string;
}

/** Other legal choices, switched on by options (start.ts: JACARANDA_* variables). */
export interface Choices {
  /** Unknown body fields are dropped (grpc-gateway DiscardUnknown) instead of refused. */
  discardUnknown: boolean;
  /** Each audit entry also carries its RFC 9162 inclusion proof against the served tree head. */
  auditProofs: boolean;
  /** Tree-head signatures in IEEE P1363 form (r||s) instead of DER. */
  sigP1363: boolean;
  /** Refusals of a keyed call (400, 404, 409 capability_denied) are stored and replayed like successes. */
  replayRefusals: boolean;
  /** A replayed webhook registration leaves the signing key out ("issued exactly once"). */
  redactKeyOnReplay: boolean;
  /** Connection events named as proto enum values (CONNECTION_CREATED) instead of dotted names. */
  upperEvents: boolean;
  /** An empty next_page_token is left out (protojson without EmitUnpopulated) instead of sent as "". */
  omitEmpty: boolean;
  /** Default page size of the delivery log (20). */
  deliveryPageSize: number;
  /** The token endpoint takes client_secret_post only (Basic answers 401 invalid_client). */
  tokenPostOnly: boolean;
  /** jac-market gets twice the calls per window of jac-harbor (limits are configured per tenant). */
  tenantLimits: boolean;
  /** Query parameters an operation does not define are refused (400) instead of ignored. */
  strictQuery: boolean;
}

export interface State {
  choices: Choices;
  clientId: string;
  clientSecret: string;
  tenants: Map<string, Tenant>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Map<string, Connection[]>;
  webhooks: Map<string, WebhookReceiver>;
  timers: Set<ReturnType<typeof setTimeout>>;
  activationMs: number;
}

export function newState(): State {
  const tenants = new Map<string, Tenant>();
  for (const [id, released] of [
    ['jac-harbor', true],
    ['jac-market', true],
    ['jac-orchard', false],
  ] as const) {
    tenants.set(id, { id, released });
  }
  return {
    choices: {
      discardUnknown: false,
      auditProofs: false,
      sigP1363: false,
      replayRefusals: false,
      redactKeyOnReplay: false,
      upperEvents: false,
      omitEmpty: false,
      deliveryPageSize: 20,
      tokenPostOnly: false,
      tenantLimits: false,
      strictQuery: false,
    },
    clientId: 'jacaranda-ci',
    clientSecret: randomToken(),
    tenants,
    tokens: new Map(),
    connections: new Map(),
    webhooks: new Map(),
    timers: new Set(),
    activationMs: 300,
  };
}

/** A timer that close() can cancel, so no activation or retry fires after shutdown. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
