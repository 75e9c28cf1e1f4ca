// The shared store of both addresses: what the OCaml team keeps in PostgreSQL tables (connections, webhooks,
// webhook_attempts, audit_entries, stream_events, idempotency_records), here in memory.
import type { Rec } from './http.ts';

export interface HackberryOptions {
  /** Calls per window per client, tenant and environment (Dream app's own limiter). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds (default 300: short-lived, renewed not extended). */
  tokenTtlSeconds?: number;
  /** Audit page size cap (default 100) and the chain's genesis link ('zeros' or 'empty'). */
  auditMaxLimit?: number;
  auditGenesis?: 'zeros' | 'empty';
  /** openapi.json inside the success envelope (default: every JSON success response carries it) or bare. */
  openapiEnvelope?: boolean;
  /** GET /connections newest first (`ORDER BY created_at DESC`, the team's usual query) instead of oldest first. */
  connectionsNewestFirst?: boolean;
}

export interface Tenant {
  id: string;
  released: boolean;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

export interface Attempt {
  id: number;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  status: number | null;
  outcome: 'pending' | 'delivered' | 'failed';
  attempt: number;
  replayOf: number | null;
  at: string;
}

export const PROVIDERS: Rec[] = [
  { id: 'prv-ocamlpay', name: 'OCamlPay', category: 'payments', summary: 'Card and wallet acquiring', country: 'FR' },
  { id: 'prv-camelpos', name: 'Camel POS', category: 'pos', summary: 'Point of sale terminals', country: 'FR' },
  { id: 'prv-lwtship', name: 'Lwt Shipping', category: 'delivery', summary: 'Courier dispatch', country: 'DE' },
];

export const CAPABILITIES: Rec[] = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Write orders', critical: false, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
  { id: 'dispatch.request', label: 'Request a courier', critical: true, idempotencyRequired: true },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'con-ocamlpay-cards',
    providerId: 'prv-ocamlpay',
    name: 'OCamlPay cards',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'con-camelpos-orders',
    providerId: 'prv-camelpos',
    name: 'Camel POS orders',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'con-lwtship-dispatch',
    providerId: 'prv-lwtship',
    name: 'Lwt dispatch',
    category: 'delivery',
    capabilities: ['dispatch.request', 'orders.read'],
  },
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const WEBHOOK_EVENTS = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];

export class Store {
  readonly tenants: Tenant[] = [
    { id: 'hb-north', released: true },
    { id: 'hb-south', released: true },
    { id: 'hb-west', released: false },
  ];
  readonly clientId = 'hackberry-ci';
  readonly clientSecret = 'hb-secret-for-loopback-tests-only';
  readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();
  readonly connections: Rec[] = [];
  readonly connectionTenant = new Map<string, string>();
  readonly webhooks = new Map<string, Webhook>();
  readonly attempts: Attempt[] = [];
  nextAttemptId = 1;
  readonly windows = new Map<string, { start: number; used: number }>();
  readonly options: Required<HackberryOptions>;
  constructor(options: Required<HackberryOptions>) {
    this.options = options;
  }
}

export function withDefaults(o: HackberryOptions = {}): Required<HackberryOptions> {
  return {
    rateLimit: o.rateLimit ?? 600,
    windowMs: o.windowMs ?? 60_000,
    tokenTtlSeconds: o.tokenTtlSeconds ?? 300,
    auditMaxLimit: o.auditMaxLimit ?? 100,
    auditGenesis: o.auditGenesis ?? 'zeros',
    openapiEnvelope: o.openapiEnvelope ?? true,
    connectionsNewestFirst: o.connectionsNewestFirst ?? false,
  };
}
