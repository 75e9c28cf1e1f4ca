import type { SandboxOptions } from '../../app/sandbox-options.ts';
import type { UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { ownToken } from './unnamed33-kit.ts';

/**
 * Round 36, tokens across tenants and processes: an integrator with a token of its own per tenant reading
 * them in turn, a worker renewing its 10-minute token once 5 minutes are left, and (misbehaving) an
 * integrator taking a new token per call while it goes round its tenants at spacings that never settle.
 */
const INTEGRATOR = 'network-integrator';
const TENANTS = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
const ALL: SandboxOptions = { fixtures: fixturesWithClientForAllTenants(INTEGRATOR) };
const tenantOf = (i: number) => TENANTS[i % 3] ?? 'harbour-kitchens';

export const WELL_BEHAVED_36_TENANTS: UnnamedClient2[] = [
  // "Tokens are short-lived and are renewed, not extended": one 15-minute token per tenant, each kept for
  // its whole life; the tenants are read in turn every 10 s, so the client's calls change token each time.
  {
    does: 'is an integrator holding one 15-minute token per tenant, reading the three tenants in turn every 10 s for 12 minutes (each call on another tenant’s token)',
    pass: ['auth.token-reused'],
    options: ALL,
    async run(t) {
      const tokens = new Map(TENANTS.map((tenant) => [tenant, { ...t.sandbox.issueToken(INTEGRATOR, 900), tenant }]));
      for (let i = 0; i < 72; i++) {
        const a = tokens.get(tenantOf(i));
        if (!a) throw new Error('no token');
        ok('read', await get(t, a, '/connectors'));
        await sleeper(t)(10_000);
      }
    },
  },
  // "renewed, not extended": the README's own example, renewing 5 minutes before expiry, on a 10-minute
  // token: half its life is used when it is replaced.
  {
    does: 'is a worker renewing its 10-minute token once 5 minutes or fewer are left, reading every 15 s for 25 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      const token = ownToken(t, 600, 300);
      for (let i = 0; i < 100; i++) {
        ok('read', await get(t, token(), '/connectors'));
        await sleeper(t)(15_000);
      }
    },
  },
];

export const MISBEHAVING_36_TENANTS: (FaultyClient & { options?: SandboxOptions })[] = [
  // "renewed, not extended": a new 15-minute token per call; per tenant the tokens are 70-90 s apart, but
  // the client takes one every 21-36 s, every two spacings in a row averaging under 30 s.
  {
    does: 'is an integrator taking a new 15-minute token for every call while it reads its three tenants in turn, the calls 22, 35, 24, 33, 21, 36, 23, 34 and 22 s apart',
    fails: ['auth.token-reused'],
    options: ALL,
    async run(t) {
      const spacings = [22, 35, 24, 33, 21, 36, 23, 34, 22];
      ok('read', await get(t, { ...t.sandbox.issueToken(INTEGRATOR, 900), tenant: tenantOf(0) }, '/connectors'));
      for (const [i, s] of spacings.entries()) {
        await sleeper(t)(s * 1_000);
        const a = { ...t.sandbox.issueToken(INTEGRATOR, 900), tenant: tenantOf(i + 1) };
        ok('read', await get(t, a, '/connectors'));
      }
    },
  },
];
