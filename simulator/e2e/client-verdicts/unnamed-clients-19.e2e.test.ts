import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_19 } from './unnamed19-ambiguous.ts';
import { MISBEHAVING_19 } from './unnamed19-misbehaving.ts';
import { MISBEHAVING_MORE_19 } from './unnamed19-misbehaving-more.ts';
import { MISBEHAVING_PROBES_19 } from './unnamed19-probes.ts';
import { RECEIVERS_19 } from './unnamed19-receivers.ts';
import { WELL_BEHAVED_19 } from './unnamed19-well-behaved.ts';
import { WELL_BEHAVED_MORE_19 } from './unnamed19-well-behaved-more.ts';

// The nineteenth round of clients nobody named elsewhere: cockatiel, graphile-worker, asynq, rq, pg-boss,
// heimdall, Hatchet, River, Pub/Sub push, NestJS, fetch-retry, superagent, Odoo crons, Airbyte, Qt, Alamofire,
// Crossplane provider-http, Okta SDKs, Go's StaticTokenSource, Next.js, openapi-generator; receivers in Axum,
// ASP.NET, Rust on SHA-512, an Elixir Plug and Express. Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 19', {
  wellBehaved: [...WELL_BEHAVED_19, ...WELL_BEHAVED_MORE_19],
  misbehaving: [...MISBEHAVING_19, ...MISBEHAVING_MORE_19, ...MISBEHAVING_PROBES_19],
  receivers: RECEIVERS_19,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 19, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_19.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_19)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
