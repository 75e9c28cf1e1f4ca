import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_35 } from './unnamed35-ambiguous.ts';
import { MISBEHAVING_35 } from './unnamed35-misbehaving.ts';
import { RECEIVERS_35 } from './unnamed35-receivers.ts';
import { WELL_BEHAVED_35 } from './unnamed35-well-behaved.ts';

// The thirty-fifth round of clients nobody named elsewhere: RTK Query's retry, SmallRye Mutiny's withBackOff,
// RxJava's retryWhen around Single.defer, Boost.Beast and Poco loops, Dart Chopper, Kotlin Fuel, SWR's
// error-retry formula, SWR and Elm in the browser, a Go map's range order in a retried body, one token across
// tenants and per-tenant caches, stream hand-overs (blue-green, a second consumer, a takeover while the first
// pod lives); receivers in Starlette, hyper, Jetty and Dancer2. Long waits are the sandbox clock advanced.
unnamedSuite('round 35', {
  wellBehaved: WELL_BEHAVED_35,
  misbehaving: MISBEHAVING_35,
  receivers: RECEIVERS_35,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 35, ambiguous: the verdict the rules give today', () => {
  const ambiguous = AMBIGUOUS_35;
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        ambiguous.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of ambiguous)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
