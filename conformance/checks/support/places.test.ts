import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';
import { creationPlaces, crossedPlaces, judgeRefusedThere, otherPlaces } from './places.ts';

/** Just what the places read of a check's context: its target, a read's status, and expectations recorded. */
function context(target: Partial<CheckContext['target']>, earlierStatus = 400) {
  const failed: string[] = [];
  const ctx = {
    target: { baseUrl: 'http://127.0.0.1:1', hasToken: true, hasAdminToken: false, ...target },
    shared: <T>(_key: string, make: () => Promise<T>) => make(),
    call: async () => ({ status: earlierStatus }),
    label: (kind: string) => `run-${kind}-1`,
    expect: {
      that: (ok: boolean, f: { expected: string }) => {
        if (!ok) failed.push(f.expected);
        return ok;
      },
    },
  } as unknown as CheckContext;
  return { ctx, failed };
}
const answer = (status: number) => ({ status }) as Exchange;

describe('the other places the interface is offered in', () => {
  it('are the alternate address and the second tenant, where given, the two together, and each other environment for a creation', async () => {
    expect(otherPlaces(context({}).ctx)).toEqual([]);
    const { ctx } = context({ altBaseUrl: 'http://127.0.0.1:2', otherTenant: 'east' });
    expect(otherPlaces(ctx).map((p) => [p.what, p.accessMayDiffer])).toEqual([
      ['at the alternate base URL', false],
      ['for tenant east', true],
      ['for tenant east at the alternate base URL', true],
    ]);
    expect(otherPlaces(ctx).at(-1)?.call).toEqual({ base: 'alt', tenant: 'east' });
    expect((await creationPlaces(ctx, 'sandbox')).map((p) => p.what)).toEqual([
      'in development',
      'in pilot',
      'in production',
      'at the alternate base URL',
      'for tenant east',
    ]);
  });

  it('include the earlier version where the target serves it (a read and a write naming it answer 200)', async () => {
    const { ctx } = context({}, 200);
    const places = await creationPlaces(ctx, 'sandbox');
    expect(places.at(-1)).toMatchObject({
      what: 'with Service-Version 2026-06-12',
      o: { headers: { 'Service-Version': '2026-06-12' } },
      accessMayDiffer: false,
    });
  });

  it("hold a refusal to 400 there, a place's own access or catalog (401, 403, 404) aside where it may differ", () => {
    const { ctx, failed } = context({});
    judgeRefusedThere(ctx, answer(400), false, 'a');
    judgeRefusedThere(ctx, answer(404), true, 'b');
    judgeRefusedThere(ctx, answer(403), true, 'c');
    judgeRefusedThere(ctx, answer(404), false, 'd');
    judgeRefusedThere(ctx, answer(200), true, 'e');
    expect(failed.map((f) => f[0])).toEqual(['d', 'e']);
  });

  it('cross every place with every other: address x tenant x earlier version, the home left out', async () => {
    expect(await crossedPlaces(context({}).ctx)).toEqual([]);
    const { ctx } = context({ altBaseUrl: 'http://127.0.0.1:2', otherTenant: 'east' }, 200);
    const places = await crossedPlaces(ctx);
    expect(places.map((p) => p.what)).toEqual([
      'at the alternate base URL',
      'for tenant east',
      'for tenant east at the alternate base URL',
      'with Service-Version 2026-06-12',
      'at the alternate base URL with Service-Version 2026-06-12',
      'for tenant east with Service-Version 2026-06-12',
      'for tenant east at the alternate base URL with Service-Version 2026-06-12',
    ]);
    expect(places.at(-1)).toEqual({
      what: 'for tenant east at the alternate base URL with Service-Version 2026-06-12',
      call: { base: 'alt', tenant: 'east', headers: { 'Service-Version': '2026-06-12' } },
      accessMayDiffer: true,
    });
    // An earlier version the target does not serve is no place: the address and tenant alone remain.
    const unserved = context({ altBaseUrl: 'http://127.0.0.1:2', otherTenant: 'east' }, 400).ctx;
    expect((await crossedPlaces(unserved)).length).toBe(3);
  });
});
