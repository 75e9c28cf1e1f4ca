import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_33 } from './unnamed33-ambiguous.ts';
import { MISBEHAVING_33 } from './unnamed33-misbehaving.ts';
import { RECEIVERS_33 } from './unnamed33-receivers.ts';
import { WELL_BEHAVED_33 } from './unnamed33-well-behaved.ts';

// The thirty-third round of clients nobody named elsewhere: Elixir HTTPoison, Agenda jobs, Android Volley,
// Unirest-Java's retryAfter, Sneakers' Maxretry, Python sseclient, Go r3labs/sse, SmallRye @Retry defaults,
// supervisord restarts, a client-side load balancer in front of the stream, remedies after 409 and 428 (on
// Service-Version 2026-06-12), token caches per worker, per tenant and cleared on any 4xx; receivers in
// Kemal, Servant, Quarkus and Drogon. Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 33', {
  wellBehaved: WELL_BEHAVED_33,
  misbehaving: MISBEHAVING_33,
  receivers: RECEIVERS_33,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 33, ambiguous: the verdict the rules give today', () => {
  const ambiguous = AMBIGUOUS_33;
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        ambiguous.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of ambiguous)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
