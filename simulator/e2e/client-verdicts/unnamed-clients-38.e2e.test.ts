import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_38 } from './unnamed38-ambiguous.ts';
import { MISBEHAVING_38 } from './unnamed38-misbehaving.ts';
import { RECEIVERS_38 } from './unnamed38-receivers.ts';
import { WELL_BEHAVED_38 } from './unnamed38-well-behaved.ts';

// The thirty-eighth round of clients nobody named elsewhere: Watermill's Retry middleware, Exq jobs, SWI-Prolog
// loops, Broadway over SQS, dlt's REST helper, vibe.d stream readers, OpenResty, kotlinx.serialization request
// models, Go's ReuseTokenSource, an Astro island, Pharo's ZnClient; edges: a 401 remedied into a 429, a token
// renewed during a Retry-After, a proxy stripping Last-Event-ID, sibling pods with tokens of their own;
// receivers in Poem, Roda, Crow and behind an API Gateway mapping template. Two wrong verdicts, one cause, left
// failing (unnamed38-misbehaving.ts): a retry more than 120 s after its failure (Exq's default backoff, an SQS
// visibility timeout of 300 s) is not linked to it. Long waits are the sandbox clock advanced.
unnamedSuite('round 38', {
  wellBehaved: WELL_BEHAVED_38,
  misbehaving: MISBEHAVING_38,
  receivers: RECEIVERS_38,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 38, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_38.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_38)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
