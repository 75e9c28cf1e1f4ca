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
 * The read-only catalog (providers, connectors, capabilities). Served from plain arrays (each record
 * validated by its contract schema, as @msw/data's `create` would) with id indexes for point look-ups,
 * so nothing on the way to the first answer imports @msw/data: with its es-toolkit imports (~550
 * modules) it was half the CPU of a cold start. The same records are offered as @msw/data collections,
 * for tests that query the catalog with the library they use for their own MSW data: `collections()`
 * imports it and builds them on first use (once per catalog load).
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
  /**
   * The catalog as @msw/data collections (copies of the records: changing them changes no answer).
   * @example const { connectors } = await sandbox.state.catalog.collections(); connectors.findMany((q) => q.where((c: { category: string }) => c.category === 'pos'));
   */
  collections(): Promise<CatalogCollections>;
}

export type CatalogCollections = {
  providers: Collection<typeof Provider>;
  connectors: Collection<typeof FixtureConnector>;
  capabilities: Collection<typeof Capability>;
};

// Callers get copies: nothing they do to an answer changes the catalog.
const plain = <T>(records: T[]): T[] => records.map((r) => ({ ...r }));

interface Records {
  providers: ProviderRecord[];
  connectors: ConnectorRecord[];
  capabilities: CapabilityRecord[];
}

async function buildCollections(r: Records): Promise<CatalogCollections> {
  const { Collection } = await import('@msw/data');
  const next: CatalogCollections = {
    providers: new Collection({ schema: Provider }),
    connectors: new Collection({ schema: FixtureConnector }),
    capabilities: new Collection({ schema: Capability }),
  };
  // Sequential creates keep fixture order (the listing order).
  for (const p of plain(r.providers)) await next.providers.create(p);
  for (const c of plain(r.connectors)) await next.connectors.create(c);
  for (const c of plain(r.capabilities)) await next.capabilities.create(c);
  return next;
}

export function createCatalogStore(): CatalogStore {
  let records: Records | undefined;
  let built: Promise<CatalogCollections> | undefined;
  // Point look-ups sit on every capability check and connection creation: keep them O(1).
  let connectorIndex = new Map<string, ConnectorRecord>();
  let capabilityIndex = new Map<string, CapabilityRecord>();
  let gen = 0;
  const loaded = () => {
    if (!records) throw new Error('the catalog is read before it was loaded');
    return records;
  };
  return {
    async load(f) {
      // Parsed by the same schemas @msw/data validated with, so the records are what it stored.
      const next: Records = {
        providers: f.providers.map((p) => Provider.parse(p)),
        connectors: f.connectors.map((c) => FixtureConnector.parse(c)),
        capabilities: f.capabilities.map((c) => Capability.parse(c)),
      };
      records = next;
      built = undefined;
      connectorIndex = new Map(plain(next.connectors).map((c) => [c.id, c]));
      capabilityIndex = new Map(plain(next.capabilities).map((c) => [c.id, c]));
      gen++;
    },
    providers: (category) =>
      plain(category === undefined ? loaded().providers : loaded().providers.filter((p) => p.category === category)),
    connectors(filter = {}) {
      const { capability, providerId, category } = filter;
      return plain(
        loaded().connectors.filter(
          (c) =>
            (capability === undefined || c.capabilities.includes(capability)) &&
            (providerId === undefined || c.providerId === providerId) &&
            (category === undefined || c.category === category),
        ),
      );
    },
    capabilities: () => plain(loaded().capabilities),
    connector: (id) => connectorIndex.get(id),
    capability: (id) => capabilityIndex.get(id),
    generation: () => gen,
    collections() {
      built ??= buildCollections(loaded());
      return built;
    },
  };
}
