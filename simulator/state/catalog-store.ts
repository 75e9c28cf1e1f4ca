import { Collection } from '@msw/data';
import { Capability, Provider } from '../contract/catalog.ts';
import { FixtureConnector, type FixtureSet } from '../contract/fixtures.ts';
import type { z } from 'zod';

type ConnectorRecord = z.infer<typeof FixtureConnector>;
type CapabilityRecord = z.infer<typeof Capability>;
type ProviderRecord = z.infer<typeof Provider>;

export interface ConnectorFilter {
  capability?: string;
  providerId?: string;
  category?: string;
}

/**
 * The read-only catalog (providers, connectors, capabilities) kept in @msw/data collections.
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

const plain = <T>(records: T[]): T[] => records.map((r) => ({ ...r }));

export function createCatalogStore(): CatalogStore {
  const providers = new Collection({ schema: Provider });
  const connectors = new Collection({ schema: FixtureConnector });
  const capabilities = new Collection({ schema: Capability });
  // Point look-ups sit on every capability check and connection creation: keep them O(1).
  let connectorIndex = new Map<string, ConnectorRecord>();
  let capabilityIndex = new Map<string, CapabilityRecord>();
  let gen = 0;
  return {
    async load(f) {
      providers.clear();
      connectors.clear();
      capabilities.clear();
      await Promise.all([
        ...f.providers.map((p) => providers.create(p)),
        ...f.connectors.map((c) => connectors.create(c)),
        ...f.capabilities.map((c) => capabilities.create(c)),
      ]);
      connectorIndex = new Map(plain(connectors.all()).map((c) => [c.id, c]));
      capabilityIndex = new Map(plain(capabilities.all()).map((c) => [c.id, c]));
      gen++;
    },
    providers: (category) => plain(category === undefined ? providers.all() : providers.findMany((q) => q.where((p: ProviderRecord) => p.category === category))),
    connectors(filter = {}) {
      const { capability, providerId, category } = filter;
      return plain(
        connectors.findMany((q) =>
          q.where((c: ConnectorRecord) =>
            (capability === undefined || c.capabilities.includes(capability)) &&
            (providerId === undefined || c.providerId === providerId) &&
            (category === undefined || c.category === category)),
        ),
      );
    },
    capabilities: () => plain(capabilities.all()),
    connector: (id) => connectorIndex.get(id),
    capability: (id) => capabilityIndex.get(id),
    generation: () => gen,
  };
}
