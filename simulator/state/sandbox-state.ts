import type { Environment } from '../contract/environment.ts';
import type { FixtureSet } from '../contract/fixtures.ts';
import { createAuditStore, type AuditStore } from './audit-store.ts';
import { recordDomainEventsIn } from './audit-trail.ts';
import { createCatalogStore, type CatalogStore } from './catalog-store.ts';
import { createClientRegistry, type ClientRegistry } from './clients.ts';
import { createClock, type Clock } from './clock.ts';
import { createConnectionsStore, type ConnectionsStore } from './connections-store.ts';
import { createEventBus, type EventBus } from './domain-events.ts';
import { createFaultStore, type FaultStore } from './fault-store.ts';
import { createIdempotencyStore, type IdempotencyOptions, type IdempotencyStore } from './idempotency-store.ts';
import { memoryOnly, type Persistence } from './persistence/persistence.ts';
import { createTokenStore, type TokenStore } from './token-store.ts';
import { createRateLimitStore, type RateLimitSettings, type RateLimitStore } from './rate-limit-store.ts';

export interface StateOptions {
  fixtures: FixtureSet;
  environment: Environment;
  tokenTtlSeconds: number;
  /** Delay before a new connection turns from pending to active (ms; 0 = active at once). */
  activationDelayMs: number;
  idempotency?: Partial<IdempotencyOptions>;
  clock?: Clock;
  /** Where stores write through (default: memory only). */
  persistence?: Persistence;
  /** Rate limit per access, tenant and environment (default RATE_LIMIT_PRESETS.default); false = off. */
  rateLimit?: RateLimitSettings | false;
}

/**
 * Everything the simulator remembers, reached only through these stores so that a persistent
 * store can replace the in-memory default without touching handlers.
 */
export interface SandboxState {
  fixtures: FixtureSet;
  environment: Environment;
  clock: Clock;
  events: EventBus;
  catalog: CatalogStore;
  clients: ClientRegistry;
  tokens: TokenStore;
  connections: ConnectionsStore;
  idempotency: IdempotencyStore;
  audit: AuditStore;
  faults: FaultStore;
  persistence: Persistence;
  /** Rate-limit counters and their settings (changeable at run time). */
  rateLimits: RateLimitStore;
  tenants: ReadonlyMap<string, { id: string; name: string }>;
  activationDelayMs: number;
  ready: Promise<void>;
  /** A digest of all tenant data, to prove that a rejected request changed nothing. */
  snapshot(): string;
  /** Back to the fixtures: catalog reloaded, tenant data, keys and faults dropped, clock back to real time. Tokens stay valid. */
  reset(): Promise<void>;
}

export function createSandboxState(opts: StateOptions): SandboxState {
  const clock = opts.clock ?? createClock();
  const persistence = opts.persistence ?? memoryOnly;
  const catalog = createCatalogStore();
  const events = createEventBus();
  const audit = createAuditStore();
  recordDomainEventsIn(events, audit);
  const state: SandboxState = {
    fixtures: opts.fixtures,
    environment: opts.environment,
    clock,
    events,
    catalog,
    clients: createClientRegistry(opts.fixtures.clients),
    tokens: createTokenStore(clock, opts.tokenTtlSeconds, persistence),
    connections: createConnectionsStore({ clock, events, activationDelayMs: opts.activationDelayMs, persistence }),
    idempotency: createIdempotencyStore(clock, opts.idempotency, persistence),
    persistence,
    audit,
    faults: createFaultStore(),
    rateLimits: createRateLimitStore(clock, opts.rateLimit),
    tenants: new Map(opts.fixtures.tenants.map((t) => [t.id, t])),
    activationDelayMs: opts.activationDelayMs,
    ready: catalog.load(opts.fixtures),
    snapshot() {
      const tenants = [...state.tenants.keys()];
      return JSON.stringify({
        connections: tenants.map((t) => state.connections.list(t)),
        idempotency: state.idempotency.size(),
        audit: tenants.map((t) => state.audit.list(t).length),
        faults: state.faults.list(),
        catalog: state.catalog.generation(),
      });
    },
    async reset() {
      state.connections.clear();
      state.idempotency.clear();
      state.audit.clear();
      state.faults.clear();
      clock.reset();
      await catalog.load(opts.fixtures);
    },
  };
  return state;
}
