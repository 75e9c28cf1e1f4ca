import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_26, UNDECIDABLE_26 } from './unnamed26-ambiguous.ts';
import { EDGES_WELL_BEHAVED_26 } from './unnamed26-edges.ts';
import { MISBEHAVING_26 } from './unnamed26-misbehaving.ts';
import { PRECONNECT_MISBEHAVING_26 } from './unnamed26-preconnect.ts';
import { PROBES_MISBEHAVING_26 } from './unnamed26-probes.ts';
import { RECEIVERS_26 } from './unnamed26-receivers.ts';
import { SPELLINGS_WELL_BEHAVED_26 } from './unnamed26-spellings.ts';
import { WELL_BEHAVED_26 } from './unnamed26-well-behaved.ts';

// The twenty-sixth round of clients nobody named elsewhere: Effect-TS Schedule, Bazel's remote Retrier,
// MassTransit, TanStack Query on a server, NServiceBus, Quartz; edges at the transport and identity level
// where correct behaviour looks like a violation and violations look correct. Receivers on Lambda function
// URLs and behind a compressing CDN. Long waits are the sandbox clock advanced, never slept.
// Cases the rules cannot decide from the server (see AMBIGUOUS_26's undecidable ones): judged there instead.
const undecidable = new Set(UNDECIDABLE_26.map((c) => c.does));
const decidable = <T extends { does: string }>(cases: T[]) => cases.filter((c) => !undecidable.has(c.does));
unnamedSuite('round 26', {
  wellBehaved: decidable([...WELL_BEHAVED_26, ...EDGES_WELL_BEHAVED_26, ...SPELLINGS_WELL_BEHAVED_26]),
  misbehaving: decidable([...MISBEHAVING_26, ...PROBES_MISBEHAVING_26, ...PRECONNECT_MISBEHAVING_26]),
  receivers: RECEIVERS_26,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 26, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        [...AMBIGUOUS_26, ...UNDECIDABLE_26].map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of [...AMBIGUOUS_26, ...UNDECIDABLE_26])
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
