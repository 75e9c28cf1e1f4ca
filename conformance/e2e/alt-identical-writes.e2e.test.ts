import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { altIdentical } from '../checks/base-urls.ts';
import type { FetchLike } from '../client/http-client.ts';
import { defineCheck } from '../runner/check.ts';
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

  it("reads once the run's own creations have ended (a check creating for seconds beside it)", async () => {
    const options = await msw.use();
    let created = 0;
    let writing = true;
    // Creates for longer than the comparison's pauses (about 3 s): read beside it, every sandwich moves.
    const writer = defineCheck({
      name: 'demo.creates-for-seconds',
      title: 'creates connections for four seconds',
      severity: 'SHOULD',
      section: 'Endpoints',
      tags: [],
      mutating: true,
      async run(ctx) {
        const ex = await ctx.call('GET', `${BASE_PATH}/connectors`);
        const c = (ex.json as { data: { connectors: { id: string; capabilities: string[] }[] } }).data.connectors[0]!;
        // Paced under the sandbox's rate limit: a creation every 60 ms moves every sandwich of reads.
        try {
          for (let i = 0, end = Date.now() + 4_000; Date.now() < end; i++) {
            const made = await ctx.call('POST', `${BASE_PATH}/connections`, {
              headers: { 'Idempotency-Key': `alt-identical-seconds-${i}` },
              json: {
                connectorId: c.id,
                environment: 'sandbox',
                scopeLabel: `write ${i}`,
                capabilities: [c.capabilities[0]],
              },
              retry: false,
            });
            if (made.status === 200) created++;
            await new Promise((r) => setTimeout(r, 60));
          }
        } finally {
          writing = false;
        }
      },
    });
    const still = {
      ...altIdentical,
      run: async (ctx: Parameters<typeof altIdentical.run>[0]) => {
        expect(writing).toBe(false);
        await altIdentical.run(ctx);
      },
    };
    const result = await runConformance({ ...options, checks: [still, writer] });
    expect(created).toBeGreaterThan(20);
    expect(result.results.map((r) => [r.check.name, r.status, r.failures])).toEqual([
      ['base-urls.alt-identical', 'pass', []],
      ['demo.creates-for-seconds', 'pass', []],
    ]);
  });
});
