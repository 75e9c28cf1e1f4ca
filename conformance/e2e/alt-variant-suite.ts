// The kit against each alternative deployment (alt-choices.ts ALT_VARIANTS), in shards: one file per
// shard (alt-variants-<n>.e2e.test.ts), so test workers run them side by side instead of one file
// holding a core for a minute (32 whole kit runs: 8 deployments x 4). With four, the costliest deployment
// (alt-c: gzip, a connection per call, delayed deliveries) shares its file only with alt-g, judged beside it
// within alt-c's time (its file took 24 s, the others 17-18 s, measured).
import { existsSync } from 'node:fs';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../client/http-client.ts';
import type { RunResult } from '../runner/run.ts';
import { runConformance } from '../runner/run.ts';
import { kitFetch } from '../test-support/kit-fetch.ts';
import { ALT_VARIANTS, type AltChoices, declaredProfile } from './alt-choices.ts';
import { altChoicesTarget } from './alt-target.ts';

/** How many files the deployments are spread over (each file judges every SHARDS-th deployment). */
export const SHARDS = 4;

/** A fixture client with a secret (client credentials), released for the simulator's default tenant. */
const CLIENT = { clientId: 'harbour-backend', clientSecret: 'hk-sandbox-secret-5f2c9a7e1b3d4c60' };

const failedChecks = (r: RunResult) =>
  r.results
    .filter((x) => x.status === 'fail')
    .map((x) => ({ name: x.check.name, severity: x.check.severity, failures: x.failures, error: x.error }));
const mustFailures = (r: RunResult) => failedChecks(r).filter((f) => f.severity === 'MUST');

/** The runs against one deployment one after another; the hang guard allows for other files sharing the cores. */
const SEQUENTIAL = { concurrent: false, timeout: 120_000 };

/**
 * Registers the deployments of one shard (0-based); shard 0 also checks that every shard has its file.
 * @example altVariantSuite(0) // in alt-variants-1.e2e.test.ts
 */
export function altVariantSuite(shard: number): void {
  if (shard === 0)
    it('every shard has its file, so no alternative deployment goes unjudged', () => {
      for (let n = 1; n <= SHARDS; n++)
        expect(existsSync(new URL(`./alt-variants-${n}.e2e.test.ts`, import.meta.url)), `alt-variants-${n}`).toBe(true);
    });
  const mine = ALT_VARIANTS.filter((_, i) => i % SHARDS === shard);
  // Deployments whose choices the kit was never told: it may skip where it cannot know, never fail a MUST.
  // The deployments of a shard are judged side by side (each is its own simulator and proxy; a kit run
  // spends much of its time waiting on streams and deliveries), the runs against one deployment one after another.
  describe.concurrent.each(mine.map((c) => [c.name, c] as const))('alternative deployment %s', (_name, choices) =>
    deploymentSuite(choices),
  );
}

function deploymentSuite(choices: AltChoices): void {
  let target: Awaited<ReturnType<typeof altChoicesTarget>>;
  // The kit's client as undici's fetch sends and reads (kit-fetch.test.ts) at a third of its CPU; the
  // default fetch itself is run end to end by cli.e2e and alt-choices.
  const agent = new Agent();
  const fetch: FetchLike = kitFetch(agent);
  beforeAll(async () => {
    target = await altChoicesTarget(choices);
  });
  afterAll(async () => {
    await agent.close();
    await target.close();
  });

  it('passes with only a token and a tenant (no profile)', SEQUENTIAL, async () => {
    const result = await runConformance({
      baseUrl: target.baseUrl,
      token: target.token,
      tenant: target.tenant,
      fetch,
    });
    expect(mustFailures(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  // Two whole runs: alt-e's rate limit makes each wait out 429s (50-56 s for the pair in clean-clone runs, past
  // the 60 s guard once with the kit's probes in other places), so the sequential runs' guard.
  it(
    'passes twice in a row with a profile declaring its choices and both base URLs, judging its webhooks',
    SEQUENTIAL,
    async () => {
      for (let run = 0; run < 2; run++) {
        const result = await runConformance({
          baseUrl: target.baseUrl,
          altBaseUrl: target.altBaseUrl,
          fetch,
          token: target.token,
          tenant: target.tenant,
          deploymentProfile: declaredProfile(choices),
        });
        expect(mustFailures(result), `run ${run + 1}`).toEqual([]);
        expect(result.exitCode, `run ${run + 1}`).toBe(0);
        const status = new Map(result.results.map((r) => [r.check.name, r.status]));
        for (const name of [
          'webhooks.signature',
          'webhooks.delivery-arrives',
          'webhooks.delivery-log',
          'audit.records-change',
          'base-urls.alt-identical',
        ])
          expect(status.get(name), `${name}, run ${run + 1}`).toBe('pass');
      }
    },
  );

  it('passes with client credentials, finding the token endpoint by discovery', SEQUENTIAL, async () => {
    const result = await runConformance({ baseUrl: target.baseUrl, tenant: target.tenant, ...CLIENT, fetch });
    expect(mustFailures(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.notices.join('\n')).toMatch(/token endpoint .* RFC 8414 metadata/);
    expect(result.summary.coverage.skippedForCredentials).toBe(0);
  });
}
