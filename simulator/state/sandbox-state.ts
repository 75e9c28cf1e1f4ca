import type { Environment } from '../contract/environment.ts';
import type { FixtureSet } from '../contract/fixtures.ts';
import { createCatalogStore, type CatalogStore } from './catalog-store.ts';
import { createClientRegistry, type ClientRegistry } from './clients.ts';
import { createClock, type Clock } from './clock.ts';
import { createTokenStore, type TokenStore } from './token-store.ts';
import { createRateLimitStore, type RateLimitSettings, type RateLimitStore } from './rate-limit-store.ts';

export interface StateOptions {
  fixtures: FixtureSet;
  environment: Environment;
  tokenTtlSeconds: number;
  clock?: Clock;
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
  catalog: CatalogStore;
  clients: ClientRegistry;
  tokens: TokenStore;
  /** Rate-limit counters and their settings (changeable at run time). */
  rateLimits: RateLimitStore;
  tenants: ReadonlyMap<string, { id: string; name: string }>;
  ready: Promise<void>;
  /** Back to the fixtures: catalog reloaded, tenant data dropped. Tokens stay valid. */
  reset(): Promise<void>;
}

export function createSandboxState(opts: StateOptions): SandboxState {
  const clock = opts.clock ?? createClock();
  const catalog = createCatalogStore();
  const state: SandboxState = {
    fixtures: opts.fixtures,
    environment: opts.environment,
    clock,
    catalog,
    clients: createClientRegistry(opts.fixtures.clients),
    tokens: createTokenStore(clock, opts.tokenTtlSeconds),
    rateLimits: createRateLimitStore(clock, opts.rateLimit),
    tenants: new Map(opts.fixtures.tenants.map((t) => [t.id, t])),
    ready: catalog.load(opts.fixtures),
    async reset() {
      await catalog.load(opts.fixtures);
    },
  };
  return state;
}
