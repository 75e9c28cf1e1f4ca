import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_45 } from './unnamed45-ambiguous.ts';
import { MISBEHAVING_45 } from './unnamed45-misbehaving.ts';
import { RECEIVERS_45 } from './unnamed45-receivers.ts';
import { WELL_BEHAVED_45 } from './unnamed45-well-behaved.ts';

// The forty-fifth round of clients nobody named elsewhere, about remedies after 4xx answers amid concurrency: a key
// after 428 for three coroutines, base64 keys re-encoded into the pattern, another tenant after 403, the right
// tenant header after 404, a body fixed after 400 or 409, another access after a missing scope, one renewal for
// three 401s; and the remedies that are none (a new token after 403, one batch key, a percent-encoded key or id,
// a stale token copy, a reader rebuilt by its writer); receivers with several v1 values, a strict hex grammar,
// a base64-decoded key and a compare cut to the length received. Long waits are the sandbox clock advanced.
unnamedSuite('round 45', {
  wellBehaved: WELL_BEHAVED_45,
  misbehaving: MISBEHAVING_45,
  receivers: RECEIVERS_45,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 45, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_45.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_45)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
