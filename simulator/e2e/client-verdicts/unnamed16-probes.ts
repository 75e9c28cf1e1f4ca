import { held, sleepOn, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { logicAppsExponential, workflowsBackoff } from './unnamed16-kit.ts';

/**
 * Round 16, edge probes: cases where the rules must tell things apart that look alike (one key text in
 * two tenants, a retry from a new pod with a new token, two server-set waits in a row, a duplicate event
 * handled by two runs at once, a 401 retried by a cmdlet, a zero-padded cursor).
 */
export const WELL_BEHAVED_PROBES_16: UnnamedClient2[] = [
  // "the same key text in two tenants is two keys" (rules) and "use a new key for each new operation":
  // a Logic Apps For each over two tenants keying each create by the run name: one key text per tenant.
  {
    does: 'is a Logic Apps For each over two tenants, one token, keying each tenant’s create by the same @{workflow().run.name}',
    pass: [],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const one = auth(t, 'network-integrator', 3_600);
      const key = '08584999888777666555CU11';
      for (const tenant of ['harbour-kitchens', 'alpine-bistro']) {
        ok(tenant, await createWith(t, { ...one, tenant }, { ...CONNECTION, scopeLabel: `Run Name ${tenant}` }, key));
        await sleeper(t)(800);
      }
    },
  },
  // "the same key with the same content": a Tekton Task (retries: 1) keying its create by
  // $(context.pipelineRun.uid); the create's 500 fails the step, the retry's new pod fetches its own token
  // 20 s later and sends the create again under the same key.
  {
    does: 'is a Tekton Task with retries: 1 keying its create by $(context.pipelineRun.uid), its retry pod fetching a new token and sending the create again 20 s later',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = `plr-${uuid(seeded(1691))}`;
      const body = { ...CONNECTION, scopeLabel: 'Pipeline Pier Pub' };
      const first = await createWith(t, auth(t, undefined, 600), body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(20_000);
      replayed('retry pod', await createWith(t, auth(t, undefined, 600), body, key));
    },
  },
  // "respect the wait time of the response": a Logic Apps HTTP action refused twice with Retry-After: 3,
  // waiting exactly 3 s each time (the server's wait, not a schedule that fails to grow).
  {
    does: 'is a Logic Apps HTTP action refused 429 twice with Retry-After: 3, waiting exactly 3 s both times',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), logicAppsExponential(seeded(1693)), 3));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an Event Grid event delivered twice at
  // once starts two Logic Apps runs (two workers, a token each), both keying the create by the event id.
  {
    does: 'is two Logic Apps runs started at once by one event delivered twice, each with its own token, both creating under the event id as key while the service is slow',
    pass: [],
    async run(t) {
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 2_000, count: 2 });
      const key = `evg-${uuid(seeded(1694))}`;
      const body = { ...CONNECTION, scopeLabel: 'Event Grid Grill' };
      const before = held(t);
      const first = createWith(t, auth(t, undefined, 600), body, key);
      await untilHeld(t, before);
      const second = createWith(t, auth(t, undefined, 600), body, key);
      await untilHeld(t, before, 2);
      await sleepOn(t, 2_000);
      const both = await Promise.all([first, second]);
      if (both.every((r) => r.status !== 200)) throw new Error(`answered ${both.map((r) => r.status)}`);
    },
  },
  // "the same key with the same content": a client with the Django habit of trailing slashes (the
  // service answers /connections/ as /connections), its dropped create sent again under its key.
  {
    does: 'writes every path with a trailing slash (POST /connections/), sending a create dropped after commit again under its key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const key = `slash-${uuid(seeded(1695))}`;
      const body = { ...CONNECTION, scopeLabel: 'Trailing Slash Tavern' };
      const send = () => api(t, a, 'POST', '/connections/', { body, key });
      replayed('create', await loop(sleeper(t), send, () => 700, 3));
    },
  },
];

export const MISBEHAVING_PROBES_16: FaultyClient[] = [
  // "the same key with the same content": the trailing-slash client again, but minting a key per attempt:
  // the create that failed with a 500 goes again under a new key on /connections/.
  {
    does: 'writes every path with a trailing slash (POST /connections/) and mints a key per attempt, a failed create sent again under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1696);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Slash And Burn Grill' };
      const send = () => api(t, a, 'POST', '/connections/', { body, key: `slash-${uuid(random)}` });
      ok('create', await loop(sleeper(t), send, () => 1_000, 1));
    },
  },
  // "respect the wait time of the response": the trailing-slash client retrying GET /providers/ 300 ms
  // after a 429 that said Retry-After: 5.
  {
    does: 'writes every path with a trailing slash (GET /providers/), retrying a 429 (Retry-After: 5) after 300 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers/'),
          () => 300,
          3,
        ),
      );
    },
  },
  // "retry only after rate_limited and internal": PowerShell's -MaximumRetryCount retries every status
  // from 400 to 599, so a read whose token expired is sent twice more with it, 2 s apart.
  {
    does: 'is PowerShell Invoke-RestMethod -MaximumRetryCount 2 -RetryIntervalSec 2 retrying a read refused 401 (expired token) with the same token',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 60);
      ok('first', await get(t, a, '/providers'));
      await t.sandbox.control.advanceClock(90);
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/connectors'),
        () => 2_000,
        2,
        (x) => x.status >= 400,
      );
      if (r.status !== 401) throw new Error(`answered ${r.status}`);
    },
  },
];

export const AMBIGUOUS_PROBES_16: AmbiguousClient8[] = [
  {
    does: 'is a Google Workflows http.get with retry backoff { initial_delay: 30, multiplier: 2, max_delay: 60 } (no jitter), three reads each through three 500s: 30 s, 60 s, 60 s each',
    why: '"growing intervals and slight random spread": no jitter fails retry.spread, rightly; whether waits held at a cap (60 s, 60 s) break "growing intervals" the interface does not say (its sample has no cap); the rules fail retry.growing-waits on the equal medians at positions 2 and 3',
    judged: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const schedule = workflowsBackoff({ initialMs: 30_000, maxMs: 60_000, multiplier: 2 });
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3 });
    },
  },
  {
    does: 'is a PowerShell script run by Task Scheduler every minute, each run fetching a new 1 h token and reading three times 20 s apart, four runs',
    why: '"Tokens are short-lived and are renewed, not extended": each run is a new process that never saw the old token, but its first call comes within 1.25 times the old token’s call gap, so the rules cannot tell the runs from one process churning tokens; whether a new token per scheduled run is a duty breach the interface does not say',
    judged: ['auth.token-reused'],
    async run(t) {
      for (let run = 0; run < 4; run++) {
        const a = auth(t, undefined, 3_600);
        for (const path of ['/providers', '/connectors', '/connections']) {
          ok(path, await get(t, a, path));
          await sleeper(t)(20_000);
        }
      }
    },
  },
  {
    does: 'is a Google Workflows http.get with retry backoff { initial_delay: 30, multiplier: 2, max_delay: 60 } (no jitter) reading through three 500s: 30 s, 60 s, 60 s',
    why: '"Clients retry with growing intervals": a capped schedule stops growing at its cap (the sample has no cap, but capping is common practice); with one retry sequence one equal pair of two is not "more than half", so it passes, while the same schedule over three reads fails (next case)',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      const wait = workflowsBackoff({ initialMs: 30_000, maxMs: 60_000, multiplier: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), wait, 3));
    },
  },
  {
    does: 'is a Nim consumer writing its cursor zero-padded (align($id, 6, ’0’)) and resuming with Last-Event-ID: 000003 after a cut after 3',
    why: '"Last-Event-ID | header | string | last number read": "000003" names the number 3 (what the stream resumes from decides), but the header is a string and the interface does not say whether leading zeros are read',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      const again = await readStream(t, a, {
        headers: { 'last-event-id': String(last).padStart(6, '0') },
        idleMs: 600,
        onOpen: () => publish(t, a.tenant, 2),
      });
      if (again[0] !== last + 1) throw new Error(`resumed at ${again[0]} after ${last}`);
    },
  },
];
