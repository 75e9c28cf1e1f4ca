import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../contract/route-def.ts';
import { newContext } from './context.ts';
import { createFrontDoor } from './front-door.ts';
import { ok } from './reply.ts';
import { checkPipeline, defineStep, pipeline } from './step.ts';

const ROUTE: RouteDef = { id: 'r', method: 'GET', path: '/t/r', purpose: 'r', tags: [], auth: false };
const match = defineStep({
  name: 'match',
  provides: ['route'],
  run(ctx, next) {
    ctx.route = ROUTE;
    return next();
  },
});
const useRoute = defineStep({
  name: 'use-route',
  requires: ['route'],
  run(ctx, next) {
    // Narrowed by `requires`: no optional chaining, no `!`.
    const id: string = ctx.route.id;
    void id;
    return next();
  },
});

// Type-level checks: `npm run typecheck` fails if any @ts-expect-error below stops being an error.
pipeline([match, useRoute]);
// @ts-expect-error -- use-route requires the route before any step provides it
pipeline([useRoute, match]);
pipeline([useRoute], ['route']);
defineStep({
  name: 'no-route',
  run(ctx, next) {
    // @ts-expect-error -- a step that requires nothing may not rely on the route
    const id: string = ctx.route.id;
    void id;
    return next();
  },
});

describe('pipeline as data', () => {
  it('is checked once at start-up: a step before what it requires is refused by name', () => {
    expect(() => checkPipeline('t', { steps: [useRoute, match], given: [] }, ['route'])).toThrow(
      't: step use-route requires route, which no earlier step provides',
    );
    expect(() => checkPipeline('t', { steps: [], given: [] }, ['route'])).toThrow(
      't: the handlers require route, which no step provides',
    );
    expect(() => checkPipeline('t', pipeline([match, useRoute]), ['route'])).not.toThrow();
  });

  it('traces each step of each request when asked, and nothing otherwise', async () => {
    const lines: string[] = [];
    const mount = {
      name: 't',
      prefixes: ['/t'],
      routes: [ROUTE],
      pipeline: pipeline([match, useRoute]),
      handlers: { r: () => ok({}) },
    };
    const ctx = () => newContext({ method: 'GET', path: '/t/r', query: {}, headers: {} }, 'req_1', 0);
    await createFrontDoor([mount], { trace: (l) => lines.push(l) }).answer(ctx());
    expect(lines).toEqual([
      'req_1 GET /t/r -> t',
      'req_1 t match',
      'req_1 t use-route',
      'req_1 t handler r',
      'req_1 t answered 200',
    ]);
    lines.length = 0;
    await createFrontDoor([mount]).answer(ctx());
    expect(lines).toEqual([]);
  });
});
