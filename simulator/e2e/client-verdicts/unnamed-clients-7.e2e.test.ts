import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_7 } from './unnamed7-ambiguous.ts';
import { MISBEHAVING_7 } from './unnamed7-misbehaving.ts';
import { PROBES_MISBEHAVING_7, PROBES_WELL_BEHAVED_7 } from './unnamed7-probes.ts';
import { RECEIVERS_7 } from './unnamed7-receivers.ts';
import { STREAMS_7 } from './unnamed7-streams.ts';
import { STACKS_7 } from './unnamed7-well-behaved.ts';
import { RUNS_7 } from './unnamed7-well-behaved-runs.ts';

// The seventh round of clients nobody named elsewhere: other runtimes' HTTP stacks (Elixir Req and
// Tesla, Rust tokio-retry, failsafe-go, OpenFeign, Apollo's RetryLink, Python backoff.fibo) and how work
// is scheduled (Airflow, Prefect, Temporal, Celery, Oban, Kubernetes Jobs, SQS redelivery), gateways
// (GraphQL, a mobile BFF, a corporate proxy), multi-tenant token caches and many parallel streams.
// The probes (unnamed7-probes.ts, the twenty-stream consumer) meet the rules' bounds: all four failed
// at first and were fixed in general (client-rules README, round 7). Long waits are the sandbox clock
// advanced, never slept.
unnamedSuite('round 7', {
  wellBehaved: [...STACKS_7, ...RUNS_7, ...STREAMS_7, ...PROBES_WELL_BEHAVED_7],
  misbehaving: [...MISBEHAVING_7, ...PROBES_MISBEHAVING_7],
  receivers: RECEIVERS_7,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 7, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_7.map((c) => () => judged(c.does, c.run, c.options)),
        4,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_7)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
