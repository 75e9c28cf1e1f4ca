import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_39 } from './unnamed39-ambiguous.ts';
import { MISBEHAVING_39 } from './unnamed39-misbehaving.ts';
import { RECEIVERS_39 } from './unnamed39-receivers.ts';
import { WELL_BEHAVED_39 } from './unnamed39-well-behaved.ts';

// The thirty-ninth round of clients nobody named elsewhere: Racket, Fortran over libcurl, GnuCOBOL batch steps,
// Zig std.http loops, AutoHotkey, conduit stream readers under Scotty, Blazor Server token caches, htmx pages,
// Orleans grains per tenant, Go Fiber and Beego clients, tRPC procedures with Zod-defaulted keys, Lumen's
// Http::retry, a Salvo natural key; receivers in Fastly Compute, Salvo, IHP and Buffalo. Long waits are the
// sandbox clock advanced.
unnamedSuite('round 39', {
  wellBehaved: WELL_BEHAVED_39,
  misbehaving: MISBEHAVING_39,
  receivers: RECEIVERS_39,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 39, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_39.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_39)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
