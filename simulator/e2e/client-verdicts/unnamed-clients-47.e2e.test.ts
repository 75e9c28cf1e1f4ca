import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_47 } from './unnamed47-ambiguous.ts';
import { MISBEHAVING_47 } from './unnamed47-misbehaving.ts';
import { RECEIVERS_47 } from './unnamed47-receivers.ts';
import { WELL_BEHAVED_47 } from './unnamed47-well-behaved.ts';

// The forty-seventh round of clients nobody named elsewhere, written by code generators with the retry and timeout
// defaults their documentation states: openapi-generator's typescript-fetch, python (urllib3 Retry), java (OkHttp)
// and go clients, Kiota's RetryHandler, NSwag and Refit behind Polly, oapi-codegen, Orval with axios-retry, Stainless,
// Speakeasy and Fern SDKs; defaults that keep the duties and defaults that do not (immediate resends, doubling
// without jitter, a 404 or 409 retried, a key minted per attempt or per method call, Retry-After capped or never
// read, retries layered over the SDK's, attempts bounded by elapsed time only); receivers in the servers
// oapi-codegen, Fern and NSwag generate. Long waits are the sandbox clock advanced.
unnamedSuite('round 47', {
  wellBehaved: WELL_BEHAVED_47,
  misbehaving: MISBEHAVING_47,
  receivers: RECEIVERS_47,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 47, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_47.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_47)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
