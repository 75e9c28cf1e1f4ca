import type { z } from 'zod';
import type { Capability, Provider } from '../contract/catalog.ts';
import type { FixtureConnector, FixtureSet } from '../contract/fixtures.ts';

type ConnectorRecord = z.infer<typeof FixtureConnector>;
type CapabilityRecord = z.infer<typeof Capability>;
type ProviderRecord = z.infer<typeof Provider>;

export interface ConnectorFilter {
  capability?: string;
  providerId?: string;
  category?: string;
}

/**
 * The read-only catalog (providers, connectors, capabilities), in fixture order. Plain arrays and
 * indexes: the fixtures are validated on load (FixtureSet), and @msw/data's collections cost about
 * 200 ms of start-up (its dependencies are some 550 modules) for queries that are simple filters.
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

export function createCatalogStore(): CatalogStore {
  let providers: ProviderRecord[] = [];
  let connectors: ConnectorRecord[] = [];
  let capabilities: CapabilityRecord[] = [];
  // Point look-ups sit on every capability check and connection creation: keep them O(1).
  let connectorIndex = new Map<string, ConnectorRecord>();
  let capabilityIndex = new Map<string, CapabilityRecord>();
  let gen = 0;
  return {
    async load(f) {
      providers = plain(f.providers);
      connectors = plain(f.connectors);
      capabilities = plain(f.capabilities);
      connectorIndex = new Map(plain(connectors).map((c) => [c.id, c]));
      capabilityIndex = new Map(plain(capabilities).map((c) => [c.id, c]));
      gen++;
    },
    providers: (category) => plain(category === undefined ? providers : providers.filter((p) => p.category === category)),
    connectors(filter = {}) {
      const { capability, providerId, category } = filter;
      return plain(
        connectors.filter((c) =>
          (capability === undefined || c.capabilities.includes(capability)) &&
          (providerId === undefined || c.providerId === providerId) &&
          (category === undefined || c.category === category)),
      );
    },
    capabilities: () => plain(capabilities),
    connector: (id) => connectorIndex.get(id),
    capability: (id) => capabilityIndex.get(id),
    generation: () => gen,
  };
}
