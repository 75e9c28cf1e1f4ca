// `ncs conformance run`: the kit against a deployment, with the chosen reporters.
import type { Command } from 'commander';

// The kit (some 250 modules with undici and yaml) is loaded only when one of its commands runs, so
// `ncs serve` does not pay for it at start-up.

export function registerConformanceRun(conformance: Command): void {
  conformance
    .command('run')
    .description(
      'run the conformance checks against a deployment (exit 0: conformant, 1: a MUST failed, 2: usage or connection error)',
    )
    .option('--base-url <url>', 'the deployment, e.g. https://staging.example (env NCS_BASE_URL)')
    .option('--alt-base-url <url>', 'its second address (env NCS_ALT_BASE_URL)')
    .option('--tenant <id>', 'x-service-tenant for authenticated calls (env NCS_TENANT)')
    .option('--token <token>', 'bearer token (env NCS_TOKEN)')
    .option('--client-id <id>', 'client credentials instead of --token (env NCS_CLIENT_ID)')
    .option('--client-secret <secret>', '(env NCS_CLIENT_SECRET)')
    .option('--token-url <url>', "token endpoint (default: the deployment profile's /oauth/token; env NCS_TOKEN_URL)")
    .option('--scope <scopes>', 'scopes to request with client credentials (env NCS_SCOPE)')
    .option(
      '--other-tenant <id>',
      'a second tenant the same credentials may act for: tenant-isolation checks (env NCS_OTHER_TENANT)',
    )
    .option(
      '--foreign-tenant <id>',
      'a tenant the credentials are NOT released for: the 403 forbidden check (env NCS_FOREIGN_TENANT)',
    )
    .option(
      '--admin-token <token>',
      'admin token of the sandbox control plane: checks that arm faults (env NCS_ADMIN_TOKEN)',
    )
    .option('--profile <profile>', 'full or read-only (default: read-only for production targets; env NCS_PROFILE)')
    .option('--environment <env>', 'declare the target environment, e.g. production (env NCS_ENVIRONMENT)')
    .option('--allow-mutations', 'let modifying checks run against production (env NCS_ALLOW_MUTATIONS=1)')
    .option('--grep <pattern>', 'only checks whose name, tag or section matches (env NCS_GREP)')
    .option('--reporter <list>', 'console,json,junit,html (env NCS_REPORTER)', undefined)
    .option(
      '--output <dir>',
      'directory for json, junit and html reports (default conformance-results; env NCS_OUTPUT)',
    )
    .option('--timeout <ms>', 'per request, milliseconds (default 10000; env NCS_TIMEOUT)')
    .option('--concurrency <n>', 'checks run at once (default 4)')
    .option('--seed <n>', 'seed of the generated probes, to repeat a run (default random, printed; env NCS_SEED)')
    .option(
      '--deployment-profile <file>',
      'JSON file with what the interface does not show (env NCS_DEPLOYMENT_PROFILE)',
    )
    .action(async (opts) => {
      const { runConformanceCommand } = await import('../../conformance/runner/run-command.ts');
      process.exit(await runConformanceCommand(opts));
    });
}
