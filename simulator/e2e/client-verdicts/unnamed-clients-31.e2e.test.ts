import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_31 } from './unnamed31-ambiguous.ts';
import { MISBEHAVING_31 } from './unnamed31-misbehaving.ts';
import { RECEIVERS_31 } from './unnamed31-receivers.ts';
import { WELL_BEHAVED_31 } from './unnamed31-well-behaved.ts';

// The thirty-first round of clients nobody named elsewhere: RxJS retry, Ruby Excon, PHP Swoole coroutines,
// a Unity headless server (and its WebGL build), Telegraf-style polling agents, JMeter, HTTP-date
// Retry-After parsing, one token across tenants and sibling processes, a cron job taking over a failed
// create, SSE checkpoints and idle timers, remedies (a new token after a 401, a key after a 428, a new key
// as the wrong remedy); receivers in Litestar, Rocket, Javalin and Tornado. Long waits are the sandbox
// clock advanced, never slept.
unnamedSuite('round 31', {
  wellBehaved: WELL_BEHAVED_31,
  misbehaving: MISBEHAVING_31,
  receivers: RECEIVERS_31,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 31, ambiguous: the verdict the rules give today', () => {
  const ambiguous = AMBIGUOUS_31;
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
