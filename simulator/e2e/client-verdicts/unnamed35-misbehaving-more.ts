import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { auth, CONNECTION } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { handOver, tenantTokens } from './unnamed35-kit.ts';

/**
 * Round 35, more misbehaving clients: a per-tenant token cache whose skew is read as the share to use up,
 * a pod taking over a stream from a stale checkpoint while the first pod still lives, an Elm app's CORS
 * preflight, a create sent again after its 200 by a replayed Redux action, and a 403 answered with a new token.
 */
const INTEGRATOR = 'network-integrator';
const TENANTS = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
const ALL: SandboxOptions = { fixtures: fixturesWithClientForAllTenants(INTEGRATOR) };

export const MISBEHAVING_35_MORE: (FaultyClient & { options?: SandboxOptions })[] = [
  // "renewed, not extended": the cache renews once `remaining < ttl * 0.8` (0.8 meant as "use 80 % of
  // it"), so each tenant's 15-minute token is replaced after 3 minutes, with 12 minutes left.
  {
    does: 'is an integrator with a token cache per tenant that renews once remaining < ttl * 0.8 (the skew read the wrong way), each tenant read every 15 s for 12 minutes: tokens replaced with 12 of 15 minutes left',
    fails: ['auth.token-reused'],
    options: ALL,
    async run(t) {
      const token = tenantTokens(t, (tenant) => ({ ...t.sandbox.issueToken(INTEGRATOR, 900), tenant }), 900, 0.8);
      for (let i = 0; i < 144; i++) {
        const tenant = TENANTS[i % 3] ?? 'harbour-kitchens';
        ok('read', await get(t, token(tenant), '/connectors'));
        await sleeper(t)(5_000);
      }
    },
  },
  // "resumes without gaps ... (last number read)": pod A's stream is cut after seven; A lives on (its
  // readiness probe reads the catalogue) but a leader election hands the stream to pod B, which resumes
  // from the checkpoint A writes every five messages: the sixth and seventh are read again.
  {
    does: 'is a consumer pod cut after seven that lives on (reading the catalogue with its token) while a leader election hands its stream to a sibling pod, which resumes from the shared checkpoint written every five (the fifth)',
    fails: ['stream.resume-from-last-read'],
    run: (t) => handOver(t, auth(t), auth(t), (ids) => ids[4] ?? 0, true),
  },
  // "Access credentials ... are never sent from a browser": Elm's Http.request with an Authorization
  // header makes the browser send a CORS preflight announcing it.
  {
    does: 'is an Elm app whose Http.request adds an Authorization header, so the browser first sends a CORS preflight announcing authorization',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      await t.fetch(`${t.baseUrl}/api/public/v1/connectors`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://elm.partner.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization,service-version,x-service-tenant',
        },
      });
    },
  },
  // "retry only after rate_limited and internal": the create was answered 200; a Node worker restoring
  // its Redux store replays the pending RTK Query mutation, same key and body, 5 s later.
  {
    does: 'is a Node worker whose restored Redux store replays an RTK Query mutation already answered 200: the same create, same key and body, 5 s later',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Replayed Rendang' };
      ok('create', await createWith(t, a, body, 'rtk-mutation-41'));
      await sleeper(t)(5_000);
      await createWith(t, a, body, 'rtk-mutation-41');
    },
  },
  // "retry only after rate_limited and internal": a 403 (access not released for the tenant) is no
  // reason to retry, and a new token is the remedy of a 401, not of a 403; the Fuel interceptor renews on
  // any 401 or 403 and repeats the read unchanged.
  {
    does: 'is a Kotlin Fuel client whose interceptor takes a new token on a 401 or a 403 and repeats the call once: a read for a tenant its access is not released for, 403 twice',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const first = { ...auth(t), tenant: 'alpine-bistro' };
      const refused = await get(t, first, '/connections');
      if (refused.status !== 403) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      await get(t, { ...auth(t), tenant: 'alpine-bistro' }, '/connections');
    },
  },
];
