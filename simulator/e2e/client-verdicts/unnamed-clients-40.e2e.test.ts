import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_40 } from './unnamed40-ambiguous.ts';
import { MISBEHAVING_40 } from './unnamed40-misbehaving.ts';
import { RECEIVERS_40 } from './unnamed40-receivers.ts';
import { WELL_BEHAVED_40 } from './unnamed40-well-behaved.ts';

// The fortieth round of clients nobody named elsewhere: Tcl, Ada AWS.Client, Hare, Rebol, Roc, Vala libsoup,
// Odin, GNU Smalltalk stream readers, Guile and Io scripts, Kitura and Oat++ clients, a Cordova WebView, MuleSoft
// until-successful defaults, per-region and per-tenant token caches; receivers in Jooby, Kitura, Oat++ and Tcl's
// wapp. Long waits are the sandbox clock advanced.
unnamedSuite('round 40', {
  wellBehaved: WELL_BEHAVED_40,
  misbehaving: MISBEHAVING_40,
  receivers: RECEIVERS_40,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 40, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_40.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_40)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
