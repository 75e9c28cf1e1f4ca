import { describe, expect, it } from 'vitest';
import { interfaceRoutes } from '../../rules/interface-routes.ts';
import { interfaceSubset } from './openapi-subset.ts';

describe('interfaceSubset', () => {
  it('keeps the interface paths and components, drops 30,000 paths no route names (round 9: cloned whole)', () => {
    const route = interfaceRoutes()[0];
    if (!route) throw new Error('the contract has routes');
    const paths: Record<string, unknown> = { [route.path]: { [route.method.toLowerCase()]: { responses: {} } } };
    for (let i = 0; i < 30_000; i++) paths[`/x${i}`] = { get: { responses: {} } };
    const doc = { openapi: '3.1.0', paths, components: { schemas: { A: { type: 'string' } } } };
    const subset = interfaceSubset(doc as never);
    expect(Object.keys(subset.paths ?? {})).toEqual([route.path]);
    expect((subset as { components?: unknown }).components).toEqual(doc.components);
    expect((subset as { components?: unknown }).components).not.toBe(doc.components);
  });
});
