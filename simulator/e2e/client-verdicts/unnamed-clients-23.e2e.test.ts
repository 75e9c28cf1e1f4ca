import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_23 } from './unnamed23-ambiguous.ts';
import { MISBEHAVING_23 } from './unnamed23-misbehaving.ts';
import { MISBEHAVING_MORE_23 } from './unnamed23-misbehaving-more.ts';
import { PROBES_MISBEHAVING_23, PROBES_WELL_BEHAVED_23 } from './unnamed23-probes.ts';
import { PROBES_MORE_MISBEHAVING_23, PROBES_MORE_WELL_BEHAVED_23 } from './unnamed23-probes-more.ts';
import { RECEIVERS_23 } from './unnamed23-receivers.ts';
import { RENEWALS_MISBEHAVING_23 } from './unnamed23-renewals.ts';
import { STREAMS_MISBEHAVING_23, STREAMS_WELL_BEHAVED_23 } from './unnamed23-streams.ts';
import { WELL_BEHAVED_23 } from './unnamed23-well-behaved.ts';
import { WELL_BEHAVED_MORE_23 } from './unnamed23-well-behaved-more.ts';

// The twenty-third round of clients nobody named elsewhere: R httr's RETRY(), Retry4j, Scala Monix and fs2,
// Rust tower's retry layer, eapache/go-resiliency, Clojure's `again`, PHP Saloon and HTTPlug, Python arq,
// taskiq and Procrastinate, Go Machinery, JobRunr, db-scheduler, the Ruby `retryable` gem, Go's x/oauth2
// clientcredentials and Duende.AccessTokenManagement, Mint and amphp stream consumers, Blazor WebAssembly,
// Helm-rendered versions; receivers in Nuxt, Remix, Hono on Workers and Go net/http. Long waits are the
// sandbox clock advanced, never slept.
unnamedSuite('round 23', {
  wellBehaved: [
    ...WELL_BEHAVED_23,
    ...WELL_BEHAVED_MORE_23,
    ...PROBES_WELL_BEHAVED_23,
    ...PROBES_MORE_WELL_BEHAVED_23,
    ...STREAMS_WELL_BEHAVED_23,
  ],
  misbehaving: [
    ...MISBEHAVING_23,
    ...MISBEHAVING_MORE_23,
    ...PROBES_MISBEHAVING_23,
    ...PROBES_MORE_MISBEHAVING_23,
    ...STREAMS_MISBEHAVING_23,
    ...RENEWALS_MISBEHAVING_23,
  ],
  receivers: RECEIVERS_23,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 23, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_23.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_23)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
