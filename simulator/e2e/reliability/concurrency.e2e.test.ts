import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { serve, type RunningServer } from '../../app/serve.ts';

describe('idempotency under concurrency (node:http)', () => {
  let s: RunningServer;
  const agent = new Agent({ connections: 64 });
  beforeAll(async () => {
    s = await serve({ port: 0, activationDelayMs: 0 });
  });
  afterAll(async () => {
    await agent.close();
    await s.close();
  });

  it('1,000 concurrent creations across 100 keys and 3 tenants make exactly 100 connections; every replay is identical', async () => {
    const tenants = [
      { ...s.sandbox.issueToken('harbour-backend'), tenant: 'harbour-kitchens' },
      { ...s.sandbox.issueToken('alpine-backend'), tenant: 'alpine-bistro' },
      { ...s.sandbox.issueToken('network-integrator'), tenant: 'harbour-kitchens' },
    ];
    // 100 keys, each owned by one of the 3 tenants; 10 concurrent requests per key.
    const keys = Array.from({ length: 100 }, (_, i) => ({ key: `concurrency-key-${i}`, who: tenants[i % 3]! }));
    const requests = keys.flatMap((k) => Array.from({ length: 10 }, () => k));
    const results = await Promise.all(
      requests.map(async ({ key, who }) => {
        const res = await undiciFetch(`${s.baseUrl}/api/public/v1/connections`, {
          dispatcher: agent,
          method: 'POST',
          headers: {
            authorization: `Bearer ${who.token}`,
            'x-service-tenant': who.tenant,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body: JSON.stringify({
            connectorId: 'tillcraft-pos-cloud',
            environment: 'sandbox',
            scopeLabel: `Venue for ${key}`,
            capabilities: ['orders.read'],
          }),
        });
        return {
          key,
          status: res.status,
          json: (await res.json()) as { data: { id: string }; meta: { replayed?: boolean } },
        };
      }),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const byKey = new Map<string, string[]>();
    for (const r of results) byKey.set(r.key, [...(byKey.get(r.key) ?? []), JSON.stringify(r.json.data)]);
    for (const [key, bodies] of byKey) expect(new Set(bodies).size, key).toBe(1);
    expect(results.filter((r) => !r.json.meta.replayed)).toHaveLength(100);
    expect(await s.sandbox.state.connections.count()).toBe(100);
    // The same key under two tenants was never shared: harbour-kitchens keys (two clients) count once each.
    const harbour = (await s.sandbox.state.connections.list('harbour-kitchens')).length;
    const alpine = (await s.sandbox.state.connections.list('alpine-bistro')).length;
    expect(harbour + alpine).toBe(100);
    expect(alpine).toBe(33);
  }, 60_000);
});
