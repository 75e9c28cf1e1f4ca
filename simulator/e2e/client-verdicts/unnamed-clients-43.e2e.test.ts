import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_43 } from './unnamed43-ambiguous.ts';
import { MISBEHAVING_43 } from './unnamed43-misbehaving.ts';
import { RECEIVERS_43 } from './unnamed43-receivers.ts';
import { WELL_BEHAVED_43 } from './unnamed43-well-behaved.ts';

// The forty-third round of clients nobody named elsewhere, where duties meet: a 429 met right after a token
// renewal, keys derived from the content (canonical or raw bytes) or minted by POST /idempotency-keys, a sibling
// pod taking over a dead pod's create, per-tenant token caches and stream checkpoints for an integrator, a jitter
// seeded from the URL; RestSharp, KrakenD, Microsoft.Extensions.Http.Resilience, Temporal's default policy;
// receivers with a cached clock, a double HMAC, a base64-decoded secret and a NaN window. Long waits are the
// sandbox clock advanced.
unnamedSuite('round 43', {
  wellBehaved: WELL_BEHAVED_43,
  misbehaving: MISBEHAVING_43,
  receivers: RECEIVERS_43,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 43, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_43.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_43)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
