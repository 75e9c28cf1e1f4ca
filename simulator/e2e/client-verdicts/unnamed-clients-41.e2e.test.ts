import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_41 } from './unnamed41-ambiguous.ts';
import { MISBEHAVING_41 } from './unnamed41-misbehaving.ts';
import { RECEIVERS_41 } from './unnamed41-receivers.ts';
import { WELL_BEHAVED_41 } from './unnamed41-well-behaved.ts';

// The forty-first round of clients nobody named elsewhere, at the rules' edges: keys issued by the service's
// POST /idempotency-keys, retries crossing a token renewal and a tenant switch, streams resumed after a
// stream.reset, row-derived keys re-used a day later, in OCaml Eio, Koka, Idris, WasmEdge, NiFi and Unison;
// receivers in Phoenix, Axum, Gin and Rails on skewed clocks and rotated keys. Long waits are the sandbox
// clock advanced.
unnamedSuite('round 41', {
  wellBehaved: WELL_BEHAVED_41,
  misbehaving: MISBEHAVING_41,
  receivers: RECEIVERS_41,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 41, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_41.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_41)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
