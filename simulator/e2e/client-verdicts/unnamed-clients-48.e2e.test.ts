import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_48 } from './unnamed48-ambiguous.ts';
import { MISBEHAVING_48 } from './unnamed48-misbehaving.ts';
import { RECEIVERS_48 } from './unnamed48-receivers.ts';
import { WELL_BEHAVED_48 } from './unnamed48-well-behaved.ts';

// The forty-eighth round of clients nobody named elsewhere: general-purpose HTTP retry middleware of other stacks in
// front of this interface's calls, each with its documented defaults or the configuration teams commonly give it:
// Python requests with urllib3 Retry, hashicorp/go-retryablehttp, Resilience4j and Spring Retry, the .NET standard
// resilience handler, faraday-retry, reqwest-retry, Guzzle's retry middleware, curl --retry and wget --tries; those
// that keep the duties and those that do not (Retry-After not respected or never seen, five or seven attempts, every
// exception retried, a key minted inside the retried method, immediate or fixed waits, linear waits without
// spread); receivers on an ASP.NET Core endpoint and on stripe-python's helper. Long waits are the sandbox clock
// advanced.
unnamedSuite('round 48', {
  wellBehaved: WELL_BEHAVED_48,
  misbehaving: MISBEHAVING_48,
  receivers: RECEIVERS_48,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 48, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_48.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_48)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
