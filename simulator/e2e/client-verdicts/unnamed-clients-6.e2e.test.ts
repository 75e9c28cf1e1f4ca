import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_6 } from './unnamed6-ambiguous.ts';
import { MISBEHAVING_6 } from './unnamed6-misbehaving.ts';
import { RECEIVERS_6 } from './unnamed6-receivers.ts';
import { WELL_BEHAVED_6 } from './unnamed6-well-behaved.ts';

// The sixth round of clients nobody named elsewhere: clients in the style of other languages' HTTP
// stacks and resilience libraries (Spring WebClient, Go net/http, httpx, Polly v8, reqwest-middleware,
// Ktor, Faraday, Sidekiq, PowerShell, Apache HttpClient) and of how programs run (a cron job, a
// serverless function, a batch importer, a CLI run by a person, a Chrome extension), plus edges of the
// rules. Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 6', { wellBehaved: WELL_BEHAVED_6, misbehaving: MISBEHAVING_6, receivers: RECEIVERS_6 });

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 6, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_6.map((c) => () => judged(c.does, c.run)),
        4,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_6)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
