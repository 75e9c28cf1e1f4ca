import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_10 } from './unnamed10-ambiguous.ts';
import { MISBEHAVING_10 } from './unnamed10-misbehaving.ts';
import { MISBEHAVING_MORE_10 } from './unnamed10-misbehaving-more.ts';
import { RECEIVERS_10 } from './unnamed10-receivers.ts';
import { TOKENS_10 } from './unnamed10-tokens.ts';
import { WELL_BEHAVED_10 } from './unnamed10-well-behaved.ts';
import { WELL_BEHAVED_MORE_10 } from './unnamed10-well-behaved-more.ts';

// The tenth round of clients nobody named elsewhere: worker pools sharing one rate-limit budget (and
// one that requeues a 429ed read to another worker), keys stamped on reads and capability checks, a
// 409 idempotency_conflict answered with a new key, Retry-After honoured over a long outage, tokens
// renewed at the very end of their lifetime, Rust backon, Clojure diehard, Perl LWP::UserAgent::
// Determined, .NET's standard resilience handler, and receivers at the window's edge. Long waits are
// the sandbox clock advanced, never slept. The round's one wrong verdict (resilience4j waits growing 1.2x per
// retry with ±10 % jitter failed retry.growing-waits) was fixed in the rules the same day (2026-11-27).
unnamedSuite('round 10', {
  wellBehaved: [...WELL_BEHAVED_10, ...WELL_BEHAVED_MORE_10, ...TOKENS_10],
  misbehaving: [...MISBEHAVING_10, ...MISBEHAVING_MORE_10],
  receivers: RECEIVERS_10,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 10, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_10.map((c) => () => judged(c.does, c.run, c.options)),
        4,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_10)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
