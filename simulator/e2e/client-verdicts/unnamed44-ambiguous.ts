import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 44, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_44: AmbiguousClient8[] = [
  {
    does: 'sends Service-Version on its creates but not on its reads (its SDK adds it only to modifying calls)',
    why: '"Sample calls send a header Service-Version ... Whether the header is mandatory ...: not shown": the interface states no duty, the rule reads the samples as one for every authenticated call',
    judged: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Half Versioned Hall' }, 'half-version-4402'));
      ok('read', await api(t, a, 'GET', '/connections', { version: null }));
      ok('read', await api(t, a, 'GET', '/providers', { version: null }));
    },
  },
  {
    does: 'retries a read at once after each of three 429s that say Retry-After: 0',
    why: '"respect the wait time of the response, retry with growing intervals": a wait of 0 is respected by retrying at once, and whether growth is still owed when the server sets the wait the interface does not say; the rules leave a wait the server set unjudged',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 0, count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          (_n, r) => r.retryAfterMs,
          3,
        ),
      );
    },
  },
];
