import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_24 } from './unnamed24-ambiguous.ts';
import { EDGES_WELL_BEHAVED_24 } from './unnamed24-edges.ts';
import { MISBEHAVING_24 } from './unnamed24-misbehaving.ts';
import { MISBEHAVING_MORE_24 } from './unnamed24-misbehaving-more.ts';
import { PROBES_MISBEHAVING_24, PROBES_WELL_BEHAVED_24 } from './unnamed24-probes.ts';
import { PROBES_EDGE_MISBEHAVING_24 } from './unnamed24-probes-edge.ts';
import { PROBES_MORE_MISBEHAVING_24, PROBES_MORE_WELL_BEHAVED_24 } from './unnamed24-probes-more.ts';
import { RECEIVERS_24 } from './unnamed24-receivers.ts';
import { WELL_BEHAVED_24 } from './unnamed24-well-behaved.ts';

// The twenty-fourth round of clients nobody named elsewhere: Symfony Messenger, Delayed::Job, lestrrat-go/backoff,
// Perl Mojo::UserAgent, Oracle PL/SQL jobs, Roblox game servers, a Godot HTML5 export, MSAL's refresh_in; edges
// where correct behaviour looks like a violation and violations look correct. Receivers in Mojolicious, Symfony
// and Spring WebFlux. Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 24', {
  wellBehaved: [
    ...WELL_BEHAVED_24,
    ...EDGES_WELL_BEHAVED_24,
    ...PROBES_WELL_BEHAVED_24,
    ...PROBES_MORE_WELL_BEHAVED_24,
  ],
  misbehaving: [
    ...MISBEHAVING_24,
    ...MISBEHAVING_MORE_24,
    ...PROBES_MISBEHAVING_24,
    ...PROBES_MORE_MISBEHAVING_24,
    ...PROBES_EDGE_MISBEHAVING_24,
  ],
  receivers: RECEIVERS_24,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 24, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_24.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_24)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
