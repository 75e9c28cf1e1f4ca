import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_37 } from './unnamed37-ambiguous.ts';
import { MISBEHAVING_37 } from './unnamed37-misbehaving.ts';
import { RECEIVERS_37 } from './unnamed37-receivers.ts';
import { WELL_BEHAVED_37 } from './unnamed37-well-behaved.ts';

// The thirty-seventh round of clients nobody named elsewhere: Pony actors on Timers, V's net.http, Janet
// scripts, OpenFaaS queue-worker retries (and cold replicas), Wolverine's cooldowns and durable inbox,
// Brighter's Polly policies, Haxe pollers and stream readers, PureScript Aff readers, a Chapel token task, a
// ReScript version header, per-tenant token caches, retries across a token renewed after a 401 (three wrong
// verdicts, left failing: unnamed37-remedies.ts); receivers in Cowboy, Bandit, Giraffe and Yesod. Long waits
// are the sandbox clock advanced.
unnamedSuite('round 37', {
  wellBehaved: WELL_BEHAVED_37,
  misbehaving: MISBEHAVING_37,
  receivers: RECEIVERS_37,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 37, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_37.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_37)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
