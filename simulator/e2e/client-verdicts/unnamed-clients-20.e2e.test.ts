import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_20 } from './unnamed20-ambiguous.ts';
import { MISBEHAVING_20 } from './unnamed20-misbehaving.ts';
import { MISBEHAVING_MORE_20 } from './unnamed20-misbehaving-more.ts';
import { MISBEHAVING_PROBES_20 } from './unnamed20-probes.ts';
import { RECEIVERS_20 } from './unnamed20-receivers.ts';
import { WELL_BEHAVED_20 } from './unnamed20-well-behaved.ts';
import { WELL_BEHAVED_MORE_20 } from './unnamed20-well-behaved-more.ts';

// The twentieth round of clients nobody named elsewhere: Kestra, Netflix Conductor, Azure API Management,
// Azure Data Factory, GitHub Actions steps on Octokit, Excon, Mozilla redo, client-go, Traefik, Node-RED, Nomad,
// Finagle, Armeria, Helidon, SmallRye, Kiota, go-sse, LaunchDarkly's eventsource client, .NET 9 SseParser,
// Spring Security, Lambda extensions and SnapStart, SvelteKit, Rundeck; receivers in Go, Spring Boot, Fastify,
// Sinatra and Bun Elysia. Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 20', {
  wellBehaved: [...WELL_BEHAVED_20, ...WELL_BEHAVED_MORE_20],
  misbehaving: [...MISBEHAVING_20, ...MISBEHAVING_MORE_20, ...MISBEHAVING_PROBES_20],
  receivers: RECEIVERS_20,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 20, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_20.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_20)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
