import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_42 } from './unnamed42-ambiguous.ts';
import { MISBEHAVING_42 } from './unnamed42-misbehaving.ts';
import { RECEIVERS_42 } from './unnamed42-receivers.ts';
import { WELL_BEHAVED_42 } from './unnamed42-well-behaved.ts';

// The forty-second round of clients nobody named elsewhere, at the rules' edges: the main and the alternate
// address used as one service (failover, hedging, a 429 met on the other address, two streams), the earlier
// published Service-Version sent on purpose, a DELETE retried under its key or after its 404, circuit breakers' half-open probes
// as retries, a dead-lettered message resubmitted under a new MessageId, per-tenant token caches; Go kit,
// Sentinel, Apigee, aria2c, Azure Service Bus, FeathersJS, Sails.js, Bun, js-yaml; receivers in Bun.serve,
// CodeIgniter, Sails and Feathers. Long waits are the sandbox clock advanced.
unnamedSuite('round 42', {
  wellBehaved: WELL_BEHAVED_42,
  misbehaving: MISBEHAVING_42,
  receivers: RECEIVERS_42,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 42, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_42.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_42)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
