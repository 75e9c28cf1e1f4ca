import { describe, expect, it } from 'vitest';
import { FixtureSet } from '../contract/fixtures.ts';
import { createSandbox } from '../app/sandbox.ts';
import { generateCatalog } from './fixture-generator.ts';

describe('fixture generator', () => {
  it.each([100, 1000, 10_000])('makes a valid catalog of %i connectors', (n) => {
    const fixtures = generateCatalog(n);
    expect(fixtures.connectors).toHaveLength(n);
    expect(() => FixtureSet.parse(fixtures)).not.toThrow();
  });

  it('is deterministic for a seed and keeps the built-in network', () => {
    expect(generateCatalog(300, 7)).toEqual(generateCatalog(300, 7));
    expect(generateCatalog(300, 7)).not.toEqual(generateCatalog(300, 8));
    const f = generateCatalog(50);
    expect(f.connectors.some((c) => c.id === 'tillcraft-pos-cloud')).toBe(true);
    expect(f.defaultClient).toBe('harbour-backend');
  });

  it('serves the generated catalog', async () => {
    const sandbox = createSandbox({ fixtures: generateCatalog(1000) });
    await sandbox.ready;
    const { token, tenant } = sandbox.issueToken();
    const res = await sandbox.core.handle({
      method: 'GET',
      path: '/api/public/v1/connectors',
      query: {},
      headers: { authorization: `Bearer ${token}`, 'x-service-tenant': tenant },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body!).data.count).toBe(1000);
  });
});
