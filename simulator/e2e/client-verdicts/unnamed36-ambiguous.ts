import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 36, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_36: AmbiguousClient8[] = [
  {
    does: 'is a Zuul 1 route (Ribbon MaxAutoRetries 0, MaxAutoRetriesNextServer 2, OkToRetryOnAllOperations) forwarding a create, key and body unchanged, to the next server at once after each of two 500s',
    why: '"retry with growing intervals" against "A sample client makes up to 4 attempts": spring-retry\'s NoBackOffPolicy waits nothing, twice; the key is kept so nothing is duplicated, and the guidance\'s schedule is a sample; the rule takes 0 ms then 0 ms as a wait that did not grow (as it does a 503 retried at once again and again), though two waits under 50 ms are not compared for spread',
    judged: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Zuul Za’atar' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'zuul-op-1'),
          () => 0,
          2,
        ),
      );
    },
  },
  {
    does: 'is a Babashka script run per order event taking a new 15-minute token each run, the events 20, 20, 46, 20 and 20 s apart',
    why: '"renewed, not extended" names no rate: the rule takes a cadence of tokens every 30 s or sooner over any two spacings, none 45 s apart; a lull of 46 s splits the run in two, and whether each half (20 s, 20 s: three tokens) is churn or two jobs started again the interface does not say; today neither half is churn (two spacings are the least the cadence takes, and the lull breaks every window holding them)',
    judged: [],
    async run(t) {
      ok('read', await get(t, auth(t, undefined, 900), '/connectors'));
      for (const s of [20, 20, 46, 20, 20]) {
        await sleeper(t)(s * 1_000);
        ok('read', await get(t, auth(t, undefined, 900), '/connectors'));
      }
    },
  },
  {
    does: 'gives up on a create after two 500s and, 3 minutes later, its user presses "connect" again: the same content under a new key',
    why: '"use a new key for each new operation": past the rules\' 120 s window a failed create sent again is taken as a new operation; to its user it is the same one, but the service kept nothing of the failed calls (a plain 500 commits nothing), so no duplicate can follow',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Pressed Again Pho' };
      await loop(
        sleeper(t),
        () => createWith(t, a, body, 'press-0001'),
        () => 800,
        1,
      );
      await sleeper(t)(180_000);
      ok('again', await createWith(t, a, body, 'press-0002'));
    },
  },
  {
    does: 'sends a create whose 400 names an unpublished Service-Version (2025-01-01) again under the same key with the current version 2 s later',
    why: '"Doing what the remedy says is a new call": another Service-Version after a 400 that refused it is the remedy; the key now goes with the same body but other headers, and whether a key refused before any work is spent the interface does not say; the service compares the body only, and the rules agree (no key rule fails); the refused call itself fails version.service-version-sent (an unpublished version was sent), which is right',
    judged: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Versioned Vada' };
      const refused = await api(t, a, 'POST', '/connections', { body, key: 'ver-op-1', version: '2025-01-01' });
      if (refused.status !== 400) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(2_000);
      ok('again', await createWith(t, a, body, 'ver-op-1'));
    },
  },
  {
    does: 'is a load script creating one connection a second (same content, a key each) whose fourth create is answered 500 and which goes on with the fifth (its own key) at the same cadence',
    why: '"use a new key for each new operation": the script never retries, and the fifth create is its own operation at the series\' cadence; but it has the failed fourth\'s content under a new key within 120 s, which the rules could take for that retry; a plain 500 commits nothing, so no duplicate follows either way',
    judged: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Loaded Laksa' };
      for (let i = 0; i < 7; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        await createWith(t, a, body, `load-series-${i}`);
        await sleeper(t)(1_000);
      }
    },
  },
];
