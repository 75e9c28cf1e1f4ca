// The one state both base addresses share: catalog, clients and tenants, connections, receivers, the key
// store and the audit chains. In memory, as a single Fly machine in the sandbox region would keep it (ETS).
import { randomBytes } from 'node:crypto';

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
}

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: 'pending' | 'active' | 'paused' | 'revoked';
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

export interface Attempt {
  number: number;
  trigger: 'initial' | 'retry' | 'replay';
  at: string;
  responseStatus: number | null;
  error: string | null;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Attempt[];
  createdAt: string;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  deleted: boolean;
}

export interface AuditEntry {
  id: number;
  at: string;
  tenant: string;
  actor: string;
  action: string;
  target: { type: string; id: string };
  prev: string;
  hash: string;
}

export interface StoredAnswer {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export interface PineOptions {
  /** Calls per fixed window per access, tenant and environment (default 1000). */
  rateLimit?: number;
  /** Length of the fixed window in ms (default 10 000). */
  windowMs?: number;
  /** How long a new connection stays pending (default 400 ms). */
  activationMs?: number;
  /** Stream messages kept for resumption per feed (default 1000). */
  streamRetention?: number;
  /** Delay between delivery retries in ms (default 1 s, 5 s, 30 s). */
  retryDelaysMs?: number[];
  /** Service-Version optional instead of required on authenticated calls. */
  serviceVersionOptional?: boolean;
  /** A replayed receiver registration leaves the signing key out ("issued exactly once"). */
  redactKeyOnReplay?: boolean;
  /** The audit proof also names its canonical form as RFC 8785 (JCS), which sorted-key JSON of pine's entries is. */
  auditJcs?: boolean;
  /** Plug.RequestId's default: a client's own x-request-id (20 to 200 characters) becomes the call's id. */
  trustRequestId?: boolean;
  /** Deliveries go through a job queue (Oban) that picks them up this much later (default 0). */
  deliveryDelayMs?: number;
  /** A replay is a new delivery (own id, `replayOf`) instead of one more attempt of the logged one. */
  replayAsNewDelivery?: boolean;
  /** The rate limit as a router plug after authentication: refusals before it (400, 401, 403) are not counted. */
  rateLimitAfterAuth?: boolean;
}

export const PROVIDERS = [
  { id: 'northwind-pay', name: 'Northwind Pay', category: 'payments', summary: 'Card and wallet payments' },
  { id: 'tablewise', name: 'Tablewise', category: 'reservations', summary: 'Table reservations and waitlist' },
  { id: 'ledgerly', name: 'Ledgerly', category: 'accounting', summary: 'Bookkeeping exports' },
  { id: 'kitchenflow', name: 'KitchenFlow', category: 'pos', summary: 'Point of sale and kitchen display' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Create reservations', critical: false, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.sync', label: 'Synchronise orders', critical: true, idempotencyRequired: true },
  { id: 'ledger.export', label: 'Export ledger', critical: false, idempotencyRequired: false },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'northwind-pay-terminal',
    providerId: 'northwind-pay',
    name: 'Northwind Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
  },
  {
    id: 'tablewise-booking',
    providerId: 'tablewise',
    name: 'Tablewise Booking',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'ledgerly-export',
    providerId: 'ledgerly',
    name: 'Ledgerly Export',
    category: 'accounting',
    capabilities: ['ledger.export', 'orders.read'],
  },
  {
    id: 'kitchenflow-pos',
    providerId: 'kitchenflow',
    name: 'KitchenFlow POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.sync', 'payments.capture'],
  },
];

export const TENANTS = ['pine-harbor', 'pine-meadow', 'pine-ridge'];

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
}

export class PineState {
  options: PineOptions &
    Required<Pick<PineOptions, 'rateLimit' | 'windowMs' | 'activationMs' | 'streamRetention' | 'retryDelaysMs'>>;
  clients: Client[];
  tokens = new Map<string, { clientId: string; expiresAt: number }>();
  connections: Connection[] = [];
  webhooks: Webhook[] = [];
  deliveries: Delivery[] = [];
  idempotency = new Map<string, StoredAnswer>();
  issuedKeys = new Map<string, number>();
  audit = new Map<string, AuditEntry[]>();
  timers = new Set<NodeJS.Timeout>();
  closed = false;

  constructor(options: PineOptions = {}) {
    this.options = {
      rateLimit: 1000,
      windowMs: 10_000,
      activationMs: 400,
      streamRetention: 1000,
      retryDelaysMs: [1000, 5000, 30_000],
      ...options,
    };
    // pine-ridge exists but this access is not released for it (403).
    this.clients = [
      { id: 'pine-ci', secret: `pine_cs_${randomBytes(18).toString('hex')}`, tenants: ['pine-harbor', 'pine-meadow'] },
    ];
  }

  /** setTimeout that close() cancels and that never keeps the process alive. */
  later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
