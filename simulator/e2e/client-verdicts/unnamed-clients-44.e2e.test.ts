import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_44 } from './unnamed44-ambiguous.ts';
import { MISBEHAVING_44 } from './unnamed44-misbehaving.ts';
import { RECEIVERS_44 } from './unnamed44-receivers.ts';
import { WELL_BEHAVED_44 } from './unnamed44-well-behaved.ts';

// The forty-fourth round of clients nobody named elsewhere, about clocks and timers: sleeps rounded up to a
// HashedWheelTimer's tick, Spring Security's clockSkew as a renewal window, Elixir Req's retry defaults, a token
// cache on a monotonic clock through a host suspend, a stream consumer whose in-flight task decides its
// checkpoint, a consumer reconnecting after a suspend, a cron job carrying a failed row into its next run;
// receivers with an anchored clock, fields in any order, a fail-open compare and 5 s of grace. Long waits are
// the sandbox clock advanced.
unnamedSuite('round 44', {
  wellBehaved: WELL_BEHAVED_44,
  misbehaving: MISBEHAVING_44,
  receivers: RECEIVERS_44,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 44, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_44.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_44)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
