import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { WELL_BEHAVED_36_EDGES } from './unnamed36-edges.ts';
import { grpcNetPolicy } from './unnamed36-kit.ts';
import { WELL_BEHAVED_36_TENANTS } from './unnamed36-tenants.ts';

/**
 * Round 36, more well-behaved clients: a leader handing a stream over through a checkpoint written per
 * message, two pods with tokens of their own reading in turn 25 s apart, an integrator's one token renewed
 * after a 401 in one of three tenants, an Erlang httpc loop, and Grpc.Net's retry policy told MaxAttempts 4.
 */
const INTEGRATOR = 'network-integrator';
const TENANTS = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
const ALL: SandboxOptions = { fixtures: fixturesWithClientForAllTenants(INTEGRATOR) };

export const WELL_BEHAVED_36_MORE: UnnamedClient2[] = [
  // "resumes without gaps ... (last number read)": pod A's consumer loop dies at a cut after six (the pod
  // lives, its readiness probe reads the catalogue); its 15 s lease runs out and pod B, elected leader,
  // opens the stream from the checkpoint A wrote after every message: 6.
  {
    does: 'is a leader (pod A) whose consumer loop dies at a cut after six while the pod lives on; its 15 s lease expires and pod B (its own token) resumes from the checkpoint A wrote per message (6)',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const b = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 6, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 6) });
      if (ids.length !== 6) throw new Error(`read ${ids.join(',')}`);
      for (let i = 0; i < 3; i++) {
        await sleeper(t)(5_000);
        ok('probe', await get(t, a, '/connectors'));
      }
      await readStream(t, b, { cursor: ids.at(-1) ?? 0, idleMs: 400 });
      ok('probe', await get(t, a, '/connectors'));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": two pods, each with a 15-minute token of its
  // own, each reading every 50 s, the second 25 s behind: the client calls every 25 s, the tokens in turn.
  {
    does: 'is two pods with a 15-minute token each, each reading every 50 s, the second 25 s behind the first, for ten minutes (a call every 25 s, the two tokens in turn)',
    pass: ['auth.token-reused'],
    async run(t) {
      const first = auth(t, undefined, 900);
      const second = auth(t, undefined, 900);
      for (let i = 0; i < 24; i++) {
        ok('read', await get(t, i % 2 ? second : first, '/connectors'));
        await sleeper(t)(25_000);
      }
    },
  },
  // "remedy: request a new access token": the integrator's one token serves three tenants; it expires, the
  // next call (second tenant) is answered 401, and the new token serves all three from then on.
  {
    does: 'is an integrator with one 2-minute token for three tenants, read in turn every 20 s, that takes a new token after the 401 its expiry brings in the second tenant',
    pass: ['auth.renewed-after-expiry'],
    options: ALL,
    async run(t) {
      let token = t.sandbox.issueToken(INTEGRATOR, 120);
      let renewed = 0;
      for (let i = 0; i < 12; i++) {
        const tenant = TENANTS[i % 3] ?? 'harbour-kitchens';
        const r = await get(t, { ...token, tenant }, '/connectors');
        if (r.status === 401 && renewed++ === 0) {
          token = t.sandbox.issueToken(INTEGRATOR, 900);
          ok('again', await get(t, { ...token, tenant }, '/connectors'));
        } else ok('read', r);
        await sleeper(t)(20_000);
      }
      if (renewed !== 1) throw new Error(`renewed ${renewed} times`);
    },
  },
  // "the same key with the same content returns the same response again": an Erlang httpc loop keeps the
  // request tuple {Url, Headers, "application/json", Body} and sleeps (500 bsl N) + rand:uniform(250).
  {
    does: 'is an Erlang httpc:request(post, {Url, Headers, Type, Body}) loop that re-sends the same request tuple after a dropped connection, sleeping (500 bsl N) + rand:uniform(250)',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop' });
      const body = { ...CONNECTION, scopeLabel: 'Erlang Empanadas' };
      const random = seeded(3610);
      const wait = (n: number) => (500 << n) + 1 + Math.floor(random() * 250);
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'httpc-op-3'), wait, 3));
    },
  },
  // "up to 4 attempts": the Grpc.Net retry policy of the docs with MaxAttempts lowered to 4.
  {
    does: 'is a .NET DelegatingHandler on Grpc.Net’s retry policy with MaxAttempts 4 (random(0, min(1 s * 1.5^(n-1), 5 s))), three reads through three 500s',
    pass: ['retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: grpcNetPolicy(seeded(3611)), failures: 3, max: 3 }),
  },
  ...WELL_BEHAVED_36_EDGES,
  ...WELL_BEHAVED_36_TENANTS,
];
