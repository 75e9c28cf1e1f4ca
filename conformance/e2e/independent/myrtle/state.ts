// One in-memory store shared by both listening addresses (the team's Postgres, UUID primary keys).
import type { Rec } from './http.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export const PROVIDERS = [
  { id: 'prov-kestrel', name: 'Kestrel Payments', category: 'payments', summary: 'Card and wallet acquiring.' },
  { id: 'prov-heron', name: 'Heron Logistics', category: 'delivery', summary: 'Courier dispatch and tracking.' },
  { id: 'prov-wren', name: 'Wren Büro', category: 'accounting', summary: 'Ledger export for bookkeepers.' },
];

export const CAPABILITIES = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'dispatch.create', label: 'Create dispatches', critical: false, idempotencyRequired: true },
  { id: 'ledger.export', label: 'Export ledger', critical: false, idempotencyRequired: false },
];

export const CONNECTORS = [
  {
    id: 'conn-kestrel-pos',
    providerId: 'prov-kestrel',
    name: 'Kestrel POS',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
  },
  {
    id: 'conn-heron-dispatch',
    providerId: 'prov-heron',
    name: 'Heron Dispatch',
    category: 'delivery',
    capabilities: ['dispatch.create', 'orders.read'],
  },
  {
    id: 'conn-wren-ledger',
    providerId: 'prov-wren',
    name: 'Wren Ledger',
    category: 'accounting',
    capabilities: ['ledger.export'],
  },
];

export interface MyrtleOptions {
  rateLimit?: number;
  windowMs?: number;
  tokenTtlSec?: number;
  auditPageMax?: number;
}

export interface Store {
  opts: Required<MyrtleOptions>;
  tokens: Map<string, { clientId: string; exp: number }>;
  connections: Rec[];
  idem: Map<string, { hash: string; status: number; body: Rec }>;
  events: { seq: number; event: string; data: Rec }[];
  listeners: Set<(e: { seq: number; event: string; data: Rec }) => void>;
  webhooks: Rec[];
  deliveries: Rec[];
  audit: Rec[];
  hits: Map<string, number[]>;
}

export function newStore(o: MyrtleOptions = {}): Store {
  return {
    opts: {
      rateLimit: o.rateLimit ?? 1200,
      windowMs: o.windowMs ?? 60_000,
      tokenTtlSec: o.tokenTtlSec ?? 3600,
      auditPageMax: o.auditPageMax ?? 100,
    },
    tokens: new Map(),
    connections: [],
    idem: new Map(),
    events: [],
    listeners: new Set(),
    webhooks: [],
    deliveries: [],
    audit: [],
    hits: new Map(),
  };
}

export function publish(s: Store, event: string, data: Rec): void {
  const e = { seq: s.events.length + 1, event, data };
  s.events.push(e);
  for (const l of s.listeners) l(e);
}
