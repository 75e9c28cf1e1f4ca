import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_30 } from './unnamed30-ambiguous.ts';
import { MISBEHAVING_30 } from './unnamed30-misbehaving.ts';
import { PROBES_AMBIGUOUS_30, PROBES_MISBEHAVING_30, PROBES_WELL_BEHAVED_30 } from './unnamed30-probes.ts';
import { RECEIVERS_30 } from './unnamed30-receivers.ts';
import { TENANTS_MISBEHAVING_30, TENANTS_WELL_BEHAVED_30 } from './unnamed30-tenants.ts';
import { WELL_BEHAVED_30 } from './unnamed30-well-behaved.ts';

// The thirtieth round of clients nobody named elsewhere: Spring Cloud Stream, http4k, Caddy, Encore,
// Netlify background functions, Kubernetes Job pods, Rebus, MATLAB scripts, Locust, Vegeta, APISIX, an
// Astro island, integrators with a token cache keyed per tenant, sibling processes taking over a create
// refused 429, remedies (a new token after a 401, and after a 403); receivers in Slim, CakePHP and Laminas.
// Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 30', {
  wellBehaved: [...WELL_BEHAVED_30, ...TENANTS_WELL_BEHAVED_30, ...PROBES_WELL_BEHAVED_30],
  misbehaving: [...MISBEHAVING_30, ...TENANTS_MISBEHAVING_30, ...PROBES_MISBEHAVING_30],
  receivers: RECEIVERS_30,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 30, ambiguous: the verdict the rules give today', () => {
  const ambiguous = [...AMBIGUOUS_30, ...PROBES_AMBIGUOUS_30];
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
