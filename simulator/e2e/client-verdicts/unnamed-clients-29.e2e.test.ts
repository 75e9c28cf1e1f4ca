import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_29 } from './unnamed29-ambiguous.ts';
import { EDGES_MISBEHAVING_29 } from './unnamed29-edges.ts';
import { FLEETS_MISBEHAVING_29, FLEETS_WELL_BEHAVED_29 } from './unnamed29-fleets.ts';
import { MISBEHAVING_29 } from './unnamed29-misbehaving.ts';
import { PROBES_MISBEHAVING_29, PROBES_WELL_BEHAVED_29 } from './unnamed29-probes.ts';
import { RECEIVERS_29 } from './unnamed29-receivers.ts';
import { WELL_BEHAVED_29 } from './unnamed29-well-behaved.ts';

// The twenty-ninth round of clients nobody named elsewhere: the OTLP exporter's retry, promise-retry,
// @slack/web-api, Google's retry-request, grpc-go's backoff, Temporal activities, Celery's autoretry
// defaults, content-derived and natural keys, a Tauri webview, integrators with one token or one per
// tenant for three tenants, a web process beside a cron job, sibling processes sharing a token file or
// taking over a dead worker's create, two tenants' streams on one token; receivers in Gin, Rails and
// Deno Fresh. Two wrong verdicts are left failing (unnamed29-edges.ts: a single successful call a second
// before a retry sequence is taken as the cadence of a poll or of a series of creates, so a fixed-1 s retry
// and a retry under a new key pass). Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 29', {
  wellBehaved: [...WELL_BEHAVED_29, ...FLEETS_WELL_BEHAVED_29, ...PROBES_WELL_BEHAVED_29],
  misbehaving: [...MISBEHAVING_29, ...FLEETS_MISBEHAVING_29, ...PROBES_MISBEHAVING_29, ...EDGES_MISBEHAVING_29],
  receivers: RECEIVERS_29,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 29, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_29.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_29)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
