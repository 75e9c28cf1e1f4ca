import type { Collection } from '@msw/data';
import type { z } from 'zod';
import { Capability, Provider } from '../contract/catalog.ts';
import { FixtureConnector, type FixtureSet } from '../contract/fixtures.ts';

type ConnectorRecord = z.infer<typeof FixtureConnector>;
type CapabilityRecord = z.infer<typeof Capability>;
type ProviderRecord = z.infer<typeof Provider>;

export interface ConnectorFilter {
  capability?: string;
  providerId?: string;
  category?: string;
}

/**
 * The read-only catalog (providers, connectors, capabilities) kept in @msw/data collections, so tests
 * can query it with the same library they use for their own MSW data. @msw/data (and its ~550
 * modules) is imported when the catalog first loads, not when the module is imported: commands that
 * never serve (`ncs openapi`, `ncs webhook verify`, the conformance kit) do not pay for it.
 * @example const catalog = createCatalogStore(); await catalog.load(fixtures); catalog.connectors({ category: 'pos' });
 */
export interface CatalogStore {
  load(fixtures: FixtureSet): Promise<void>;
  providers(category?: string): ProviderRecord[];
  connectors(filter?: ConnectorFilter): ConnectorRecord[];
  capabilities(): CapabilityRecord[];
  connector(id: string): ConnectorRecord | undefined;
  capability(id: string): CapabilityRecord | undefined;
  /** Bumps whenever the catalog is reloaded, so cached JSON answers can be invalidated. */
  generation(): number;
}

// Callers get copies: nothing they do to an answer changes the catalog.
const plain = <T>(records: T[]): T[] => records.map((r) => ({ ...r }));

type Collections = {
  providers: Collection<typeof Provider>;
  connectors: Collection<typeof FixtureConnector>;
  capabilities: Collection<typeof Capability>;
};

export function createCatalogStore(): CatalogStore {
  let collections: Collections | undefined;
  // Point look-ups sit on every capability check and connection creation: keep them O(1).
  let connectorIndex = new Map<string, ConnectorRecord>();
  let capabilityIndex = new Map<string, CapabilityRecord>();
  let gen = 0;
  const loaded = () => {
    if (!collections) throw new Error('the catalog is read before it was loaded');
    return collections;
  };
  return {
    async load(f) {
      const { Collection } = await import('@msw/data');
      const next: Collections = {
        providers: new Collection({ schema: Provider }),
        connectors: new Collection({ schema: FixtureConnector }),
        capabilities: new Collection({ schema: Capability }),
      };
      // Sequential creates keep fixture order (the listing order).
      for (const p of f.providers) await next.providers.create(p);
      for (const c of f.connectors) await next.connectors.create(c);
      for (const c of f.capabilities) await next.capabilities.create(c);
      collections = next;
      connectorIndex = new Map(plain(next.connectors.all()).map((c) => [c.id, c]));
      capabilityIndex = new Map(plain(next.capabilities.all()).map((c) => [c.id, c]));
      gen++;
    },
    providers: (category) =>
      plain(
        category === undefined
          ? loaded().providers.all()
          : loaded().providers.findMany((q) => q.where((p: ProviderRecord) => p.category === category)),
      ),
    connectors(filter = {}) {
      const { capability, providerId, category } = filter;
      return plain(
        loaded().connectors.findMany((q) =>
          q.where(
            (c: ConnectorRecord) =>
              (capability === undefined || c.capabilities.includes(capability)) &&
              (providerId === undefined || c.providerId === providerId) &&
              (category === undefined || c.category === category),
          ),
        ),
      );
    },
    capabilities: () => plain(loaded().capabilities.all()),
    connector: (id) => connectorIndex.get(id),
    capability: (id) => capabilityIndex.get(id),
    generation: () => gen,
  };
}
