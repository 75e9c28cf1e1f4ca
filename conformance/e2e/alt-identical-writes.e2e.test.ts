import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { FetchLike } from '../client/http-client.ts';
import { runConformance } from '../runner/run.ts';
import { globalFetch, mswTargets } from './targets.ts';

// Other checks write while base-urls.alt-identical compares: the comparison must not mistake that for
// a difference between the two addresses.
describe('base-urls.alt-identical while the tenant data changes', () => {
  const msw = mswTargets();
  beforeAll(msw.listen);
  afterAll(msw.close);

  it('passes when a connection is created right before every read on the alternate address', async () => {
    const options = await msw.use();
    const auth = { authorization: `Bearer ${options.token}`, 'x-service-tenant': options.tenant! };
    const connectors = JSON.parse(
      await (await globalFetch(`${options.baseUrl}${BASE_PATH}/connectors`, { method: 'GET', headers: auth })).text(),
    ) as { data: { connectors: { id: string; capabilities: string[] }[] } };
    const connector = connectors.data.connectors.find((c) => c.capabilities.length > 0)!;
    let writes = 0;
    const writing: FetchLike = async (url, init) => {
      if (init.method === 'GET' && url === `${options.altBaseUrl}${BASE_PATH}/connections`) {
        const created = await globalFetch(`${options.baseUrl}${BASE_PATH}/connections`, {
          method: 'POST',
          headers: {
            ...auth,
            'content-type': 'application/json',
            'Idempotency-Key': `alt-identical-write-${++writes}`,
          },
          body: JSON.stringify({
            connectorId: connector.id,
            environment: 'sandbox',
            scopeLabel: `concurrent write ${writes}`,
            capabilities: [connector.capabilities[0]],
          }),
        });
        expect(created.status).toBe(200);
      }
      return globalFetch(url, init);
    };
    const result = await runConformance({ ...options, fetch: writing, grep: '^base-urls\\.alt-identical$' });
    expect(writes).toBeGreaterThan(0);
    expect(result.results.map((r) => [r.check.name, r.status, r.failures])).toEqual([
      ['base-urls.alt-identical', 'pass', []],
    ]);
  });
});
