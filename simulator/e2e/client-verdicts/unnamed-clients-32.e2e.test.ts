import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_32 } from './unnamed32-ambiguous.ts';
import { MISBEHAVING_32 } from './unnamed32-misbehaving.ts';
import { RECEIVERS_32 } from './unnamed32-receivers.ts';
import { WELL_BEHAVED_32 } from './unnamed32-well-behaved.ts';

// The thirty-second round of clients nobody named elsewhere: Unreal's FHttpRetrySystem, ESP32 firmware
// waking from deep sleep, MicroPython, Kombu's publish retry_policy on HTTP, Gatling tryMax and pace,
// Retrofit interceptors (retries and 429s crossing a token renewal, a key derived from the token),
// Shoryuken, Grafana Alloy-style scraping, GoodJob and Solid Queue schedules, Fly Machines per event, Luigi,
// lru-cache as a token cache, the earlier Service-Version on a stream across token expiry; receivers in
// Warp, Val Town, Spin and Cro. Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 32', {
  wellBehaved: WELL_BEHAVED_32,
  misbehaving: MISBEHAVING_32,
  receivers: RECEIVERS_32,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 32, ambiguous: the verdict the rules give today', () => {
  const ambiguous = AMBIGUOUS_32;
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
