import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_28 } from './unnamed28-ambiguous.ts';
import { EDGES_MISBEHAVING_28, EDGES_WELL_BEHAVED_28 } from './unnamed28-edges.ts';
import { MISBEHAVING_28 } from './unnamed28-misbehaving.ts';
import { PROBES_MISBEHAVING_28, PROBES_WELL_BEHAVED_28 } from './unnamed28-probes.ts';
import { RECEIVERS_28 } from './unnamed28-receivers.ts';
import { WELL_BEHAVED_28 } from './unnamed28-well-behaved.ts';

// The twenty-eighth round of clients nobody named elsewhere: Go sethgrid/pester and rehttp, imroc/req v3,
// LangChain's with_retry, urql's retryExchange, Dart's RetryClient, DBOS steps, resque-retry, pydantic
// request models, fetch-event-source, sse.js, a proxy that moves Last-Event-ID to ?cursor= (or drops it),
// per-tenant token caches, tokens renewed in the middle of a retry sequence; receivers in FastAPI, Echo, hapi
// and AdonisJS. Two wrong verdicts are left failing (one integrator token's duties judged per tenant: an
// expired token sent on to the other tenant, a token per call alternating tenants). Long waits are the
// sandbox clock advanced, never slept.
unnamedSuite('round 28', {
  wellBehaved: [...WELL_BEHAVED_28, ...EDGES_WELL_BEHAVED_28, ...PROBES_WELL_BEHAVED_28],
  misbehaving: [...MISBEHAVING_28, ...EDGES_MISBEHAVING_28, ...PROBES_MISBEHAVING_28],
  receivers: RECEIVERS_28,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 28, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_28.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_28)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
