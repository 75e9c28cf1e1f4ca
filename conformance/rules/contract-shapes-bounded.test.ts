import { describe, expect, it } from 'vitest';
import { dataProblems } from './contract-shapes.ts';
import { interfaceRoutes } from './interface-routes.ts';

describe('dataProblems on a huge invalid answer', () => {
  it('names the first problems of 600,000 `{}` routes without collecting an error per entry (round 9)', () => {
    const route = interfaceRoutes().find((r) => r.method === 'GET' && r.path === '/api/public/v1');
    if (!route) throw new Error('the self-description route is in the contract');
    const before = process.memoryUsage().rss;
    const problems = dataProblems(route, { routes: Array.from({ length: 600_000 }, () => ({})) });
    expect(problems).toMatch(/^data must have required property/);
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
  });
});
