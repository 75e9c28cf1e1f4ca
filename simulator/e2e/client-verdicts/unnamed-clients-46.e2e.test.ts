import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_46 } from './unnamed46-ambiguous.ts';
import { MISBEHAVING_46 } from './unnamed46-misbehaving.ts';
import { RECEIVERS_46 } from './unnamed46-receivers.ts';
import { WELL_BEHAVED_46 } from './unnamed46-well-behaved.ts';

// The forty-sixth round of clients nobody named elsewhere, where the stream and the writes meet: consumers
// resuming after a token renewal or a 429 on another call, two consumers sharing one checkpoint store, a pod
// resuming from a dead pod's checkpoint, stream readers creating a connection per message and retrying it under a
// key derived from the message number, readers on the alternate address, SDKs obeying the stream's retry: field
// or not, creates batched per poll; receivers verifying the raw buffer before parsing, a body re-serialised (wrong)
// and a clock read from the delivery's own header (wrong). Long waits are the sandbox clock advanced.
unnamedSuite('round 46', {
  wellBehaved: WELL_BEHAVED_46,
  misbehaving: MISBEHAVING_46,
  receivers: RECEIVERS_46,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 46, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_46.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_46)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
