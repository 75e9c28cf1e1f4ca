// Catalogs of any size for the scaling measurements: the built-in hospitality network (its tenants,
// clients and catalog, so every bench request still works) grown with invented providers, capabilities
// and connectors. Deterministic for a seed.
// Usage: node simulator/bench/fixture-generator.ts <connectors> [seed] > catalog.json
import { readFileSync } from 'node:fs';
import type { FixtureSet } from '../contract/fixtures.ts';

const BUILT_IN = new URL('../../fixtures/hospitality.json', import.meta.url);
const CATEGORIES = ['pos', 'delivery', 'payments', 'reservations', 'accounting', 'loyalty'] as const;
const VERBS = ['read', 'sync', 'create', 'export'] as const;
const WORDS = [
  'harbour',
  'alpine',
  'lakeside',
  'ember',
  'copper',
  'linden',
  'maple',
  'saffron',
  'juniper',
  'granite',
  'willow',
  'cobalt',
];

/** A small seeded generator (mulberry32): the same seed gives the same catalog. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A fixture set with `connectors` connectors in total (at least the built-in 26), about one
 * provider per five connectors and 40 extra capabilities; valid against FixtureSet.
 * @example const fixtures = generateCatalog(10_000); createSandbox({ fixtures });
 */
export function generateCatalog(connectors: number, seed = 1): FixtureSet {
  const base = JSON.parse(readFileSync(BUILT_IN, 'utf8')) as FixtureSet;
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const extra = Math.max(0, connectors - base.connectors.length);
  const capabilities = [...base.capabilities];
  for (let i = 0; i < 40; i++) {
    const category = CATEGORIES[i % CATEGORIES.length]!;
    const verb = VERBS[Math.floor(i / CATEGORIES.length) % VERBS.length]!;
    capabilities.push({
      id: `${category}.x${i}.${verb}`,
      label: `${verb} ${category} ${i}`,
      critical: i % 3 === 0,
      idempotencyRequired: verb !== 'read',
    });
  }
  const capabilityIds = capabilities.map((c) => c.id);
  const providers = [...base.providers];
  const providerCount = Math.ceil(extra / 5);
  for (let i = 0; i < providerCount; i++) {
    const category = pick(CATEGORIES);
    const name = `${pick(WORDS)} ${category} ${i}`;
    providers.push({
      id: `gen-provider-${i}`,
      name,
      category,
      summary: `Invented ${category} provider number ${i} for scaling measurements.`,
    });
  }
  const list = [...base.connectors];
  for (let i = 0; i < extra; i++) {
    const providerIndex = providerCount ? i % providerCount : 0;
    const provider = providers[base.providers.length + providerIndex] ?? providers[0]!;
    const caps = new Set<string>();
    const n = 3 + Math.floor(rnd() * 8);
    while (caps.size < n) caps.add(pick(capabilityIds));
    const restricted = rnd() < 0.2 ? { production: [[...caps][0]!] } : undefined;
    list.push({
      id: `gen-connector-${i}`,
      providerId: provider.id,
      name: `${provider.name} connector ${i}`,
      category: provider.category,
      capabilities: [...caps],
      ...(restricted ? { restrictedIn: restricted } : {}),
      status: rnd() < 0.8 ? 'general-availability' : 'beta',
    });
  }
  return {
    ...base,
    name: `generated-${connectors}`,
    description: `The hospitality network grown to ${connectors} connectors (seed ${seed}).`,
    providers,
    connectors: list,
    capabilities,
  };
}

if (import.meta.main) {
  const n = Number(process.argv[2]);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write('usage: node simulator/bench/fixture-generator.ts <connectors> [seed]\n');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(generateCatalog(n, Number(process.argv[3] ?? 1)), null, 2)}\n`);
}
