import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../contract/route-def.ts';
import { ApiError } from './api-error.ts';
import { newContext } from './context.ts';
import { createFrontDoor } from './front-door.ts';
import type { Mount } from './mount.ts';
import { ok } from './reply.ts';
import { defineStep, pipeline } from './step.ts';

const route = (id: string, path: string): RouteDef => ({ id, method: 'GET', path, purpose: id, tags: [], auth: false });
/** A stand-in for route matching: the mount's one route. */
const matchOnly = (r: RouteDef) =>
  defineStep({
    name: 'match',
    provides: ['route'],
    run(ctx, next) {
      ctx.route = r;
      return next();
    },
  });
function mount(name: string, prefixes: string[], extra: Partial<Mount> = {}): Mount {
  const r = route(name, `${prefixes[0]}/x`);
  return {
    name,
    prefixes,
    routes: [r],
    pipeline: pipeline([matchOnly(r)]),
    handlers: { [name]: () => ok({ name }) },
    ...extra,
  };
}
const ctxFor = (path: string) => newContext({ method: 'GET', path, query: {}, headers: {} }, 'req_1', 0);
const nameOf = async (door: ReturnType<typeof createFrontDoor>, path: string) =>
  JSON.parse((await door.answer(ctxFor(path))).body ?? '').data.name;

describe('front door', () => {
  it('picks the mount with the longest prefix, per path segment, the root owning the rest', async () => {
    const door = createFrontDoor([
      mount('root', ['']),
      mount('sandbox', ['/_sandbox']),
      mount('inspector', ['/_sandbox/inspector']),
      mount('oauth', ['/oauth', '/.well-known/oauth-authorization-server']),
    ]);
    expect(await nameOf(door, '/_sandbox/inspector/api/journal')).toBe('inspector');
    expect(await nameOf(door, '/_sandbox/inspector')).toBe('inspector');
    expect(await nameOf(door, '/_sandbox/inspectorx')).toBe('sandbox');
    expect(await nameOf(door, '/_sandbox')).toBe('sandbox');
    expect(await nameOf(door, '/oauth/token')).toBe('oauth');
    expect(await nameOf(door, '/.well-known/oauth-authorization-server')).toBe('oauth');
    expect(await nameOf(door, '/oauthx')).toBe('root');
    expect(await nameOf(door, '/api/public/v1')).toBe('root');
  });

  it('refuses at start-up a route without a handler and two mounts on one prefix', () => {
    expect(() => createFrontDoor([mount('a', ['/a'], { handlers: {} })])).toThrow('a: routes without a handler: a');
    expect(() => createFrontDoor([mount('a', ['/a']), mount('b', ['/a'])])).toThrow('b and a both mount /a');
  });

  it("answers failures through the mount's onError by type, and rethrows what it does not know", async () => {
    class Teapot extends Error {}
    const failing = (err: Error): Partial<Mount> => ({
      handlers: {
        t: () => {
          throw err;
        },
      },
      routes: [route('t', '/t')],
      pipeline: pipeline([matchOnly(route('t', '/t'))]),
      onError: (e) => (e instanceof Teapot ? { status: 418, headers: {}, body: 'teapot' } : undefined),
    });
    expect((await createFrontDoor([mount('t', ['/t'], failing(new Teapot()))]).answer(ctxFor('/t'))).status).toBe(418);
    await expect(
      createFrontDoor([mount('t', ['/t'], failing(new Error('boom')))]).answer(ctxFor('/t')),
    ).rejects.toThrow('boom');
    const envelope = await createFrontDoor([
      mount('t', ['/t'], { ...failing(new ApiError('not_found')), onError: undefined }),
    ]).answer(ctxFor('/t'));
    expect(envelope.status).toBe(404);
    expect(JSON.parse(envelope.body ?? '').error.code).toBe('not_found');
  });
});
