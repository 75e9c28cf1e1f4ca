import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_17 } from './unnamed17-ambiguous.ts';
import { MISBEHAVING_17 } from './unnamed17-misbehaving.ts';
import { MISBEHAVING_MORE_17 } from './unnamed17-misbehaving-more.ts';
import { AMBIGUOUS_PROBES_17, MISBEHAVING_PROBES_17, WELL_BEHAVED_PROBES_17 } from './unnamed17-probes.ts';
import { MISBEHAVING_PROBES_MORE_17, WELL_BEHAVED_PROBES_MORE_17 } from './unnamed17-probes-more.ts';
import { RECEIVERS_17 } from './unnamed17-receivers.ts';
import { WELL_BEHAVED_17 } from './unnamed17-well-behaved.ts';
import { WELL_BEHAVED_MORE_17 } from './unnamed17-well-behaved-more.ts';

// The seventeenth round of clients nobody named elsewhere: R httr2's req_retry, OpenResty (lua-resty-http),
// F# on FsHttp, Pulumi dynamic providers, Kafka Streams processors, Spark tasks, Ray tasks and actors,
// Electron and Tauri apps, WordPress plugins and WP-Cron, Power Automate, Jenkins pipelines, Chef and Salt
// resources, Snowflake external functions, BigQuery remote functions, dbt Python models, Flink async I/O;
// receivers in WordPress, Rails, OpenResty, Express and Django. Long waits are the sandbox clock advanced,
// never slept. No wrong verdict this round: a random wait that never grows (Salt's interval + splay),
// speculation and reruns across two executors (a token each), one key on two routes and a body serialised
// by another stack were all judged as the interface says.
unnamedSuite('round 17', {
  wellBehaved: [...WELL_BEHAVED_17, ...WELL_BEHAVED_MORE_17, ...WELL_BEHAVED_PROBES_17, ...WELL_BEHAVED_PROBES_MORE_17],
  misbehaving: [...MISBEHAVING_17, ...MISBEHAVING_MORE_17, ...MISBEHAVING_PROBES_17, ...MISBEHAVING_PROBES_MORE_17],
  receivers: RECEIVERS_17,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 17, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  const cases = [...AMBIGUOUS_17, ...AMBIGUOUS_PROBES_17];
  beforeAll(
    () =>
      pool(
        cases.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of cases)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
