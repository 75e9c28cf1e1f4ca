import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_27 } from './unnamed27-ambiguous.ts';
import { EDGES_WELL_BEHAVED_27 } from './unnamed27-edges.ts';
import { MISBEHAVING_27 } from './unnamed27-misbehaving.ts';
import { PROBES_MISBEHAVING_27, PROBES_WELL_BEHAVED_27 } from './unnamed27-probes.ts';
import { RECEIVERS_27 } from './unnamed27-receivers.ts';
import { WELL_BEHAVED_27 } from './unnamed27-well-behaved.ts';

// The twenty-seventh round of clients nobody named elsewhere: Rust reqwest-retry and tokio-retry, failsafe-go,
// Symfony's RetryableHttpClient, httpx-retries, Prefect, ActiveJob, wretch, swift-retry, Bottleneck, retry-ts,
// Azure Functions queue triggers, GitHub Actions re-runs; edges of tenants, partners' second clients, rolling
// deploys of stream consumers, long polls through 429s, 400s remedied in a header (Content-Type, charset: the
// rules take those for unchanged repeats, a wrong verdict left failing). Long waits are the sandbox clock
// advanced, never slept.
unnamedSuite('round 27', {
  wellBehaved: [...WELL_BEHAVED_27, ...EDGES_WELL_BEHAVED_27, ...PROBES_WELL_BEHAVED_27],
  misbehaving: [...MISBEHAVING_27, ...PROBES_MISBEHAVING_27],
  receivers: RECEIVERS_27,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 27, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_27.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_27)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
