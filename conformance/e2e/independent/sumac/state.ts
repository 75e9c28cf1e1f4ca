// The in-memory "database" of sumac: auto-increment tables (ids rendered as prefixed strings, like a
// Laravel model's route key) and the seeded catalog. Both listeners share one State.
import { randomBytes } from 'node:crypto';
import type { SumacOptions } from './support.ts';

export interface CapabilityRow {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}
export interface ProviderRow {
  id: string;
  name: string;
  category: string;
  summary: string;
}
export interface ConnectorRow {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
}

export interface ConnectionRow {
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

export interface WebhookRow {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
  deleted: boolean;
}

export interface DeliveryRow {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  body: string;
  status: 'queued' | 'delivered' | 'failed' | 'retrying';
  attempts: { attempt: number; status_code: number | null; error: string | null; attempted_at: string }[];
  retryOf: string | null;
  createdAt: string;
}

export interface StreamMessage {
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

export interface State {
  opts: Required<Pick<SumacOptions, 'rateLimit' | 'windowMs' | 'backoff' | 'activationMs'>> & SumacOptions;
  counters: Map<string, number>;
  clients: Map<string, { secret: string; tenants: string[] }>;
  knownTenants: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  providers: ProviderRow[];
  connectors: ConnectorRow[];
  capabilities: CapabilityRow[];
  connections: ConnectionRow[];
  webhooks: WebhookRow[];
  deliveries: DeliveryRow[];
  stream: StreamMessage[];
  listeners: Set<(m: StreamMessage) => void>;
  rate: Map<string, { start: number; count: number }>;
  timers: Set<ReturnType<typeof setTimeout>>;
  /** The application key (APP_KEY): keys the audit proof, never leaves the process. */
  appKey: Buffer;
}

/** Next auto-increment id of a table, rendered with its prefix ("con_12"). */
export function nextId(state: State, prefix: string): string {
  const n = (state.counters.get(prefix) ?? 0) + 1;
  state.counters.set(prefix, n);
  return `${prefix}_${n}`;
}

export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  t.unref();
  state.timers.add(t);
}

const cap = (id: string, label: string, critical: boolean, idempotencyRequired: boolean): CapabilityRow => ({
  id,
  label,
  critical,
  idempotencyRequired,
});

export function createState(opts: SumacOptions, clientId: string, clientSecret: string, tenants: string[]): State {
  return {
    // Options left undefined (an unset SUMAC_* variable) keep the defaults.
    opts: {
      rateLimit: 600,
      windowMs: 60_000,
      backoff: [1, 5, 10],
      activationMs: 400,
      ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
    },
    counters: new Map(),
    clients: new Map([[clientId, { secret: clientSecret, tenants }]]),
    knownTenants: new Set([...tenants, 'sumac-west']),
    tokens: new Map(),
    providers: [
      { id: 'prv_1', name: 'Tillpoint', category: 'pos', summary: 'Point-of-sale terminals and cash registers' },
      { id: 'prv_2', name: 'Courierly', category: 'delivery', summary: 'Last-mile delivery platform' },
      { id: 'prv_3', name: 'Ledgerline', category: 'accounting', summary: 'Bookkeeping and invoicing' },
    ],
    connectors: [
      {
        id: 'cnr_1',
        providerId: 'prv_1',
        name: 'Tillpoint Orders',
        category: 'pos',
        capabilities: ['orders.read', 'orders.write', 'menu.sync'],
      },
      {
        id: 'cnr_2',
        providerId: 'prv_2',
        name: 'Courierly Dispatch',
        category: 'delivery',
        capabilities: ['orders.read', 'delivery.dispatch'],
      },
      {
        id: 'cnr_3',
        providerId: 'prv_3',
        name: 'Ledgerline Export',
        category: 'accounting',
        capabilities: ['payments.capture', 'reports.export'],
      },
      { id: 'cnr_4', providerId: 'prv_1', name: 'Tillpoint Menu', category: 'pos', capabilities: ['menu.sync'] },
    ],
    capabilities: [
      cap('orders.read', 'Read orders', false, false),
      cap('orders.write', 'Create and change orders', true, true),
      cap('menu.sync', 'Synchronise the menu', false, true),
      cap('delivery.dispatch', 'Dispatch a courier', true, true),
      cap('payments.capture', 'Capture payments', true, true),
      cap('reports.export', 'Export reports', false, false),
    ],
    connections: [],
    webhooks: [],
    deliveries: [],
    stream: [],
    listeners: new Set(),
    rate: new Map(),
    timers: new Set(),
    appKey: randomBytes(32),
  };
}

/** Appends a status message to the public stream and hands it to every open stream. */
export function publish(state: State, event: string, data: Record<string, unknown>): void {
  const m: StreamMessage = { seq: state.stream.length + 1, event, data };
  state.stream.push(m);
  for (const l of state.listeners) l(m);
}
