// The kit's options for an independent deployment started in process (conformance/e2e/independent/*):
// each returns the same handle (addresses, three tenants, client credentials, token endpoint), which the
// kit reads as a CI job reads its environment.
import { Agent } from 'undici';
import { optionsFromEnv, runConformance } from '../index.ts';
import { kitFetch } from '../test-support/kit-fetch.ts';

/** What every independent deployment's start function returns, as far as the kit needs it. */
export interface IndependentTarget {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant?: string | undefined;
  foreignTenant?: string | undefined;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
}

/**
 * A full-profile run's options against `target`, with a deployment profile file or none.
 * @example const run = await runConformance(independentOptions(await startCedar(), CEDAR_PROFILE));
 */
export function independentOptions(target: IndependentTarget, profile?: string) {
  return optionsFromEnv({
    NCS_BASE_URL: target.baseUrl,
    NCS_ALT_BASE_URL: target.altBaseUrl,
    NCS_TENANT: target.tenant,
    NCS_OTHER_TENANT: target.otherTenant,
    NCS_FOREIGN_TENANT: target.foreignTenant,
    NCS_CLIENT_ID: target.clientId,
    NCS_CLIENT_SECRET: target.clientSecret,
    NCS_TOKEN_URL: target.tokenUrl,
    NCS_PROFILE: 'full',
    NCS_DEPLOYMENT_PROFILE: profile,
    // A hang guard here, not the kit's 10 s default for a deployment over a network: the deployment runs in the
    // test's own process beside other kit runs, and a rate-limit burst's answer waited past 10 s on a loaded
    // worker (a load flake of juniper, gorse and atlas in whole-suite runs). No deployment withholds an answer.
    NCS_TIMEOUT: '30000',
  });
}

/**
 * A deployment started by `start`, judged by a full-profile run (with a profile file or none), then closed:
 * the run and its checks that neither passed nor skipped, as "SEVERITY name: failures".
 * @example const { run, failed } = await judgeIndependent(() => startFern(), FERN_PROFILE);
 */
export async function judgeIndependent(
  start: () => Promise<IndependentTarget & { close(): Promise<void> }>,
  profile?: string,
) {
  const target = await start();
  // The kit's client as undici's fetch sends and reads (kit-fetch.test.ts) at about a third of its CPU per call:
  // these runs are most of `npm test`'s CPU, and the default fetch itself is run end to end by cli.e2e and
  // alt-choices. Connections of this run only, ended before the deployment closes.
  const agent = new Agent();
  try {
    const run = await runConformance({ ...independentOptions(target, profile), fetch: kitFetch(agent) });
    const failed = run.results
      .filter((r) => r.status !== 'pass' && r.status !== 'skip')
      // An error (the check could not complete) carries no failures: its message says what broke.
      .map((r) => `${r.check.severity} ${r.check.name}: ${r.error ?? JSON.stringify(r.failures).slice(0, 600)}`);
    return { run, failed };
  } finally {
    await agent.destroy();
    await target.close();
  }
}
