import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_36 } from './unnamed36-ambiguous.ts';
import { AMBIGUOUS_36_MORE } from './unnamed36-ambiguous-more.ts';
import { MISBEHAVING_36 } from './unnamed36-misbehaving.ts';
import { RECEIVERS_36 } from './unnamed36-receivers.ts';
import { WELL_BEHAVED_36 } from './unnamed36-well-behaved.ts';

// The thirty-sixth round of clients nobody named elsewhere: Angular HttpClient's retry on the server, Fluentd
// out_http buffer retries, ts-retry-promise, Grpc.Net's retry policy, Apache HttpClient 4, Hystrix, ABAP and
// Delphi loops, Babashka scripts, Erlang httpc, a PWA's service worker, a Kinesis-fed Lambda, leaders handing a
// stream over (and a split brain); receivers in Ratpack, Play, Pharo Teapot and ServiceStack. Long waits are the
// sandbox clock advanced.
unnamedSuite('round 36', {
  wellBehaved: WELL_BEHAVED_36,
  misbehaving: MISBEHAVING_36,
  receivers: RECEIVERS_36,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 36, ambiguous: the verdict the rules give today', () => {
  const ambiguous = [...AMBIGUOUS_36, ...AMBIGUOUS_36_MORE];
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
