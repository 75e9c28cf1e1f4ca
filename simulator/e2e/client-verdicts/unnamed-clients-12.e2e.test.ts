import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_12 } from './unnamed12-ambiguous.ts';
import { MISBEHAVING_12 } from './unnamed12-misbehaving.ts';
import { MISBEHAVING_MORE_12 } from './unnamed12-misbehaving-more.ts';
import { KNOWN_WRONG_12 } from './unnamed12-probes.ts';
import { PROBE_RECEIVERS_12, RECEIVERS_12 } from './unnamed12-receivers.ts';
import { WELL_BEHAVED_12 } from './unnamed12-well-behaved.ts';
import { WELL_BEHAVED_MORE_12 } from './unnamed12-well-behaved-more.ts';

// The twelfth round of clients nobody named elsewhere: C++ cpr and libcurl loops, Ruby Net::HTTP by
// hand, OkHttp interceptors, Dart's retry package and Flutter for the web, Scala sttp with cats-retry,
// R httr2, Julia HTTP.jl, Symfony's RetryableHttpClient, OpenResty, Google Apps Script, Kafka Connect's
// HTTP sink, n8n, Zapier autoreplay, MuleSoft, Power Automate, Terraform's retry.RetryContext, clients
// whose clock runs ahead when they compute token expiry, stream consumers reconnecting on every heartbeat
// timeout, and receivers behind a CDN. Long waits are the sandbox clock advanced, never slept. Found
// three wrong verdicts: a receiver comparing a truncated signature (strncmp) passed the receiver check
// (fixed: it now sends a cut and an empty v1); two well-behaved clients sending identical reads at once
// (unnamed12-probes.ts) are failed today: pinned below as known wrong verdicts, not fixed.
unnamedSuite('round 12', {
  wellBehaved: [...WELL_BEHAVED_12, ...WELL_BEHAVED_MORE_12],
  misbehaving: [...MISBEHAVING_12, ...MISBEHAVING_MORE_12],
  receivers: [...RECEIVERS_12, ...PROBE_RECEIVERS_12],
});

// Cases the interface does not decide, and the known wrong verdicts: the rules' current verdict, stated so
// that a change moving it is seen.
describe('unnamed clients, round 12, ambiguous and known wrong: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  const pinned = [...AMBIGUOUS_12, ...KNOWN_WRONG_12];
  beforeAll(
    () =>
      pool(
        pinned.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of pinned)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
