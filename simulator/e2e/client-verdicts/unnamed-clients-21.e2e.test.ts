import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_21 } from './unnamed21-ambiguous.ts';
import { MISBEHAVING_21 } from './unnamed21-misbehaving.ts';
import { MISBEHAVING_MORE_21 } from './unnamed21-misbehaving-more.ts';
import { MISBEHAVING_PROBES_21 } from './unnamed21-probes.ts';
import { RECEIVERS_21 } from './unnamed21-receivers.ts';
import { WELL_BEHAVED_21 } from './unnamed21-well-behaved.ts';
import { WELL_BEHAVED_MORE_21 } from './unnamed21-well-behaved-more.ts';

// The twenty-first round of clients nobody named elsewhere: Python's `retry` decorator, Rust tryhard,
// ElixirRetry, softwaremill retry, Dramatiq, bee-queue, Rican7/retry, @lifeomic/attempt, kotlin-retry,
// Karafka, Spring Cloud Gateway, wget, Retool, Firebase, Playwright, Kong, Airtable, httpx-sse, sseclient-py,
// the eventsource package, Hurl, Convex, Cypress, PocketBase, Directus, Bruno, Meltano, Flowable; receivers in
// Koa, Actix-web, Vercel, a Standard Webhooks library, ASP.NET Core and PHP. Long waits are the sandbox clock
// advanced, never slept. Two probes (a cache-busting query on every attempt) fail today: wrong verdicts, kept
// as they should be (unnamed21-probes.ts).
unnamedSuite('round 21', {
  wellBehaved: [...WELL_BEHAVED_21, ...WELL_BEHAVED_MORE_21],
  misbehaving: [...MISBEHAVING_21, ...MISBEHAVING_MORE_21, ...MISBEHAVING_PROBES_21],
  receivers: RECEIVERS_21,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 21, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_21.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_21)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
