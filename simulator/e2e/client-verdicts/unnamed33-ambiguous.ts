import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { smallryeDefault, supervisordRestart } from './unnamed33-kit.ts';

/**
 * Round 33, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_33: AmbiguousClient8[] = [
  {
    does: 'is a worker under supervisord (startretries 3) that exits when its startup read answers 500; each restart, 1, 2 and 3 s later, is a new process taking a new 15 min token',
    why: '"renewed, not extended" against "a later run (a job started again) is no churn": each restart is a process of its own that cannot keep its token, but on the wire it is the same as a client clearing its token cache on every 5xx and retrying with a new one (rounds 25, 26 and 32: churn); excusing a token after a 5xx passed those, so the restarts stay judged as one process churning, as round 13 judged a Dagster op\'s step processes',
    judged: ['auth.token-reused'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      let n = 0;
      ok(
        'startup',
        await loop(
          sleeper(t),
          () => get(t, auth(t, undefined, 900), '/connections'),
          () => supervisordRestart(n++),
          3,
        ),
      );
    },
  },
  {
    does: 'is a Quarkus bean on SmallRye @Retry defaults (maxRetries 3, delay 0, jitter 200 ms): ten reads through three 500s each, each wait drawn in 0-200 ms',
    why: '"growing intervals and slight random spread": the waits never grow, but a shorter wait after a longer one is no fault (full jitter draws those), two waits under 50 ms count as none, and the mean\'s growth over ten sequences of a 0-200 ms range does not stand out from jitter: today it passes',
    judged: [],
    async run(t) {
      const a = auth(t);
      const wait = smallryeDefault(seeded(3392));
      for (const [route, path] of [...READS, ...READS]) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  {
    does: 'gets 409 capability_denied, drops the refused capability and sends the fixed body under the same key',
    why: '"use a new key for each new operation" against "the same key with different content yields idempotency_conflict": a refused call committed nothing, so whether the fixed body is the same operation is not said; the key was sent with other content, which the rule counts whatever the first answer was',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const wanted = {
        ...CONNECTION,
        scopeLabel: 'Refixed Rendang',
        capabilities: ['orders.read', 'loyalty.points.teleport'],
      };
      const refused = await createWith(t, a, wanted, 'cap-same-key-1');
      if (refused.status !== 409) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      await createWith(t, a, { ...wanted, capabilities: ['orders.read'] }, 'cap-same-key-1');
    },
  },
  {
    does: 'uses its job id as the Idempotency-Key of both steps of one job: creating a connection, then registering a webhook',
    why: '"use a new key for each new operation" against a key compared "on the same route": the second step is another route, but the service answers it idempotency_conflict (one key space), and the rule counts a key so answered',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const jobId = 'job-7d41c9e2';
      ok('connection', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Two Step Tagine' }, jobId));
      await sleeper(t)(1_000);
      const hook = { url: 'https://partner.example/hooks', events: ['order.created'] };
      const second = await api(t, a, 'POST', '/webhooks', { body: hook, key: jobId });
      if (second.json?.error?.code !== 'idempotency_conflict') throw new Error(`answered ${second.status}`);
    },
  },
  {
    does: 'is a scheduler job every 30 s exactly (each run a new process taking a 15 min token for one read), ten runs',
    why: '"renewed, not extended" against "a later run is no churn": round 31 took a steady cadence of new tokens "every 30 s or sooner" after calls that did not fail as one run, and 30 s is the boundary itself: today the spacing (30 s plus the call) is taken as over it, and it passes',
    judged: [],
    async run(t) {
      for (let run = 0; run < 10; run++) {
        ok('read', await get(t, auth(t, undefined, 900), '/connections'));
        await sleeper(t)(30_000);
      }
    },
  },
];
