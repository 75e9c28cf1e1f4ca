import { api, auth, CONNECTION, fault, type Reply } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { dateAnchored, juliaBackoff, nested, obanBackoff, readsOn, untilSuccessful } from './unnamed25-kit.ts';

/**
 * Round 25, misbehaving clients whose violation looks correct: a fixed wait from an integration platform,
 * two retry layers multiplying attempts, a library default that retries 403, a Retry-After counted from the
 * Date header, a key that names the attempt, a 400 sent again re-serialised. Each must fail exactly its rule.
 */
export const MISBEHAVING_25: FaultyClient[] = [
  // "Clients retry with growing intervals and slight random spread": MuleSoft until-successful waits a fixed
  // millisBetweenRetries (2 s): neither growth nor spread.
  {
    does: 'is a MuleSoft until-successful scope (millisBetweenRetries 2000, maxRetries 3), three reads each through three 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: untilSuccessful, failures: 3, max: 3 });
    },
  },
  // "A sample client makes up to 4 attempts": a plain cron job retries twice (5 s apart) around an
  // SDK that itself retries twice (500 ms, 1 s): nine attempts of one read.
  {
    does: 'is a job retrying twice (5 s) around an SDK that retries twice itself (500 ms, 1 s): nine attempts of one read through eight 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 8 });
      ok(
        'read',
        await nested(sleeper(t), () => get(t, a, '/providers'), { inner: [500, 1_000], outer: [5_000, 5_000] }),
      );
    },
  },
  // "retry only after rate_limited and internal": Julia HTTP.jl's default retry check also retries 403
  // (and 408, 409): a read for a tenant the client is not released for is sent three times.
  {
    does: 'is a Julia HTTP.jl client whose default retry check retries 403: a read for a tenant it is not released for, three times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/connections'),
        juliaBackoff(seeded(2523)),
        2,
        (x) => x.status === 403 || x.status === 429 || x.status >= 500,
      );
      if (r.status !== 403) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": a client counts Retry-After from the 429's Date header (whole
  // seconds, 900 ms behind its arrival), so it sleeps 900 ms short of it, on three reads.
  {
    does: 'counts a 429’s Retry-After (2 s) from the answer’s Date header, sleeping 900 ms short, on three reads',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), dateAnchored, 2));
        await sleeper(t)(5_000);
      }
    },
  },
  // "Idempotency keys reused on retries": an Oban worker builds the key from the job id and `job.attempt`,
  // so each run of the job after a 500 sends the create under a new key.
  {
    does: 'is an Oban worker keying its create "conn-#{job.id}-#{attempt}", so the run after a 500 sends it under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Oban Attempt Orzo' };
      ok(
        'create',
        await loop(sleeper(t), (n) => createWith(t, a, body, `conn-48215-${n + 1}`), obanBackoff(seeded(2525)), 3),
      );
    },
  },
  // "invalid_request ... check the request": a Flurl client repeats a capability check refused 400 after
  // re-serialising the body with another key order and indentation: the same content again.
  {
    does: 'repeats a capability check refused 400 after re-serialising its body (other key order, indented): the same content',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const first = await api(t, a, 'POST', '/capabilities', { body: { connectorId: 'x', capability: 'orders.read' } });
      if (first.status !== 400) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      const raw = JSON.stringify({ capability: 'orders.read', connectorId: 'x' }, null, 2);
      const again: Reply = await api(t, a, 'POST', '/capabilities', { raw });
      if (again.status !== 400) throw new Error(`again ${again.status}`);
    },
  },
  // "the same key with the same content": a create whose connection dropped past the commit is sent again
  // under its key, but the capabilities come from a set and are written in another order: other content.
  {
    does: 'retries a dropped create under its key with the capabilities from a HashSet in another order (other content)',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'HashSet Halloumi' };
      const r = await loop(
        sleeper(t),
        (n) =>
          createWith(t, a, n ? { ...body, capabilities: [...body.capabilities].reverse() } : body, 'hashset-4e1a9b07'),
        () => 800,
        1,
      );
      if (r.json?.error?.code !== 'idempotency_conflict') throw new Error(`retry answered ${r.status}`);
    },
  },
  // "use a new key for each new operation": a key derived from the body's hash, so a second identical till
  // booked 20 s after the first replays the first and books nothing.
  {
    does: 'derives its key from the body’s SHA-256, so a second identical till booked 20 s later under the same key replays the first',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Hash Key Hummus' };
      const key = 'sha256-9c1e4f0a7b2d53e8a1f6';
      ok('first', await createWith(t, a, body, key));
      await sleeper(t)(20_000);
      const second = await createWith(t, a, body, key);
      if (second.json?.meta?.replayed !== true) throw new Error(`second ${second.status}`);
    },
  },
];
