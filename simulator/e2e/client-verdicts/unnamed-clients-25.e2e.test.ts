import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_25 } from './unnamed25-ambiguous.ts';
import { EDGES_WELL_BEHAVED_25 } from './unnamed25-edges.ts';
import { MISBEHAVING_25 } from './unnamed25-misbehaving.ts';
import { MISBEHAVING_MORE_25 } from './unnamed25-misbehaving-more.ts';
import { PROBES_MISBEHAVING_25, PROBES_WELL_BEHAVED_25 } from './unnamed25-probes.ts';
import { PROBES_MORE_MISBEHAVING_25, PROBES_MORE_WELL_BEHAVED_25 } from './unnamed25-probes-more.ts';
import { RECEIVERS_25 } from './unnamed25-receivers.ts';
import { WELL_BEHAVED_25 } from './unnamed25-well-behaved.ts';

// The twenty-fifth round of clients nobody named elsewhere: Java Failsafe, Rust backon, Julia HTTP.jl, Elixir
// Oban, the npm exponential-backoff package, .NET Flurl, MuleSoft until-successful, Common Lisp dexador; edges
// where correct behaviour looks like a violation and violations look correct. Receivers in Dart shelf, Elixir
// Plug and Ktor. Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 25', {
  wellBehaved: [
    ...WELL_BEHAVED_25,
    ...EDGES_WELL_BEHAVED_25,
    ...PROBES_WELL_BEHAVED_25,
    ...PROBES_MORE_WELL_BEHAVED_25,
  ],
  misbehaving: [...MISBEHAVING_25, ...MISBEHAVING_MORE_25, ...PROBES_MISBEHAVING_25, ...PROBES_MORE_MISBEHAVING_25],
  receivers: RECEIVERS_25,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 25, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_25.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_25)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
