import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../app/fixtures-loader.ts';
import { createCatalogStore } from './catalog-store.ts';

const fixtures = loadFixtures();

describe('catalog store', () => {
  const catalog = createCatalogStore();
  beforeAll(() => catalog.load(fixtures));

  it('lists in fixture order, filters, and hands out copies', () => {
    expect(catalog.providers().map((p) => p.id)).toEqual(fixtures.providers.map((p) => p.id));
    expect(catalog.providers('pos').every((p) => p.category === 'pos')).toBe(true);
    const pos = catalog.connectors({ category: 'pos', capability: 'orders.read' });
    expect(pos.length).toBeGreaterThan(0);
    expect(pos).toEqual(
      fixtures.connectors.filter((c) => c.category === 'pos' && c.capabilities.includes('orders.read')),
    );
    const first = catalog.connectors()[0]!;
    first.name = 'changed by a caller';
    expect(catalog.connectors()[0]!.name).not.toBe('changed by a caller');
    expect(catalog.connector(first.id)?.id).toBe(first.id);
    expect(catalog.capabilities().length).toBe(fixtures.capabilities.length);
  });

  it('offers the same records as @msw/data collections, built once per load', async () => {
    const a = await catalog.collections();
    expect(await catalog.collections()).toBe(a);
    expect(a.connectors.all().map((c) => ({ ...c }))).toEqual(catalog.connectors());
    expect(
      a.providers.findMany((q) => q.where((p: { category: string }) => p.category === 'pos')).map((p) => p.id),
    ).toEqual(catalog.providers('pos').map((p) => p.id));
    await catalog.load(fixtures);
    expect(await catalog.collections()).not.toBe(a);
  });

  it('loads and answers without importing @msw/data (it is half of a cold start)', () => {
    // A fresh process records every module it loads (vitest's own loader would hide them).
    const store = fileURLToPath(new URL('./catalog-store.ts', import.meta.url));
    const loader = fileURLToPath(new URL('../app/fixtures-loader.ts', import.meta.url));
    const script = `
      import { registerHooks } from 'node:module';
      const seen = [];
      registerHooks({ load(url, ctx, next) { seen.push(url); return next(url, ctx); } });
      const { createCatalogStore } = await import(${JSON.stringify(store)});
      const { loadFixtures } = await import(${JSON.stringify(loader)});
      const c = createCatalogStore();
      await c.load(loadFixtures());
      const listed = c.connectors({ category: 'pos' }).length;
      const before = seen.filter((u) => u.includes('@msw/data')).length;
      await c.collections();
      const after = seen.filter((u) => u.includes('@msw/data')).length;
      console.log(JSON.stringify({ listed, before, after }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as { listed: number; before: number; after: number };
    expect(out.listed).toBeGreaterThan(0);
    expect(out.before).toBe(0);
    expect(out.after).toBeGreaterThan(0);
  });
});
