import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_8 } from './unnamed8-ambiguous.ts';
import { BOUNDS_MISBEHAVING_8, BOUNDS_WELL_BEHAVED_8 } from './unnamed8-bounds.ts';
import { MISBEHAVING_8 } from './unnamed8-misbehaving.ts';
import { MISBEHAVING_MORE_8 } from './unnamed8-misbehaving-more.ts';
import { PROBES_MISBEHAVING_8, PROBES_WELL_BEHAVED_8 } from './unnamed8-probes.ts';
import { RECEIVERS_8 } from './unnamed8-receivers.ts';
import { STACKS_8 } from './unnamed8-well-behaved.ts';
import { RUNS_8 } from './unnamed8-well-behaved-runs.ts';

// The eighth round of clients nobody named elsewhere: stacks no earlier round used (Haskell retry, ZIO,
// Ruby retriable, Laravel, ky, avast/retry-go, Micronaut, Dart dio_smart_retry, Python stamina, p-retry,
// Kotlin flows, Electron) and interleavings at the rules' bounds: one token shared by processes, a
// webhook registration, a create and a stream resumed within one Retry-After, a fan-out of checks,
// runs longer than the 200 calls kept per client, receivers at the edges of the 300 s window. Long
// waits are the sandbox clock advanced, never slept.
unnamedSuite('round 8', {
  wellBehaved: [...STACKS_8, ...RUNS_8, ...BOUNDS_WELL_BEHAVED_8, ...PROBES_WELL_BEHAVED_8],
  misbehaving: [...MISBEHAVING_8, ...MISBEHAVING_MORE_8, ...BOUNDS_MISBEHAVING_8, ...PROBES_MISBEHAVING_8],
  receivers: RECEIVERS_8,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 8, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_8.map((c) => () => judged(c.does, c.run, c.options)),
        4,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_8)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
