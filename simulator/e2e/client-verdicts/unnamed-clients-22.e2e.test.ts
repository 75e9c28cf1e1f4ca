import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_22 } from './unnamed22-ambiguous.ts';
import { MISBEHAVING_22 } from './unnamed22-misbehaving.ts';
import { MISBEHAVING_MORE_22 } from './unnamed22-misbehaving-more.ts';
import { RECEIVER_PROBES_22 } from './unnamed22-probes.ts';
import { RECEIVERS_22 } from './unnamed22-receivers.ts';
import { WELL_BEHAVED_22 } from './unnamed22-well-behaved.ts';
import { WELL_BEHAVED_EXTRA_22 } from './unnamed22-well-behaved-extra.ts';
import { WELL_BEHAVED_MORE_22 } from './unnamed22-well-behaved-more.ts';

// The twenty-second round of clients nobody named elsewhere: Stainless-generated SDKs, http4s' Retry
// middleware, make-fetch-happen, jpillora/backoff, Smithy-generated clients, Perl Minion, niquests, Typhoeus,
// apalis, OpenFeign, pgmq, QStash, Magento, Home Assistant, Authlib, clue/reactphp-eventsource, OkHttp's
// EventSource, aiohttp consumers, the nick-fields/retry GitHub Action, Huey, Scrapy, requests-oauthlib, Grafana
// Infinity, OpenAPI Generator; receivers in Flask, Phoenix, an Envoy Wasm filter, Rack and one leaving out the
// dot. Long waits are the sandbox clock advanced, never slept. Two receiver probes (caches of verified delivery
// ids or signatures) fail today: wrong verdicts, kept as they should be (unnamed22-probes.ts).
unnamedSuite('round 22', {
  wellBehaved: [...WELL_BEHAVED_22, ...WELL_BEHAVED_MORE_22, ...WELL_BEHAVED_EXTRA_22],
  misbehaving: [...MISBEHAVING_22, ...MISBEHAVING_MORE_22],
  receivers: [...RECEIVERS_22, ...RECEIVER_PROBES_22],
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 22, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_22.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_22)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
