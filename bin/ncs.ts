#!/usr/bin/env node
// The ncs command: option parsing only; every command is a library function.
import { Command, CommanderError } from 'commander';
import { listChecks } from '../conformance/cli/list-command.ts';
import { runConformanceCommand } from '../conformance/cli/run-command.ts';
import { runServe } from '../simulator/cli/serve-command.ts';
import { writeOpenApi } from '../simulator/cli/openapi-command.ts';
import { FixtureError } from '../simulator/state/fixtures-loader.ts';

const program = new Command('ncs').description('Network Connections Service sandbox: simulator and conformance kit').showHelpAfterError();

program
  .command('serve')
  .description('start the simulator over HTTP with the built-in (or given) fixtures')
  .option('--host <host>', 'address to listen on (loopback by default)', '127.0.0.1')
  .option('--port <port>', 'port to listen on', '4010')
  .option('--alt-port <port>', 'also listen here: the interface\'s alternate base URL (0: any free port)')
  .option('--fixtures <file>', 'JSON fixture set to load instead of the built-in hospitality network')
  .option('--ready-file <path>', 'write {baseUrl, token, tenant, adminToken} as JSON once listening')
  .option('--token-ttl <seconds>', 'lifetime of issued access tokens')
  .option('--admin-token <token>', 'control-plane token (default: random; env NCS_ADMIN_TOKEN)')
  .option('--allow-browser-credentials', 'accept credentials sent with an Origin header (local tooling)')
  .option('--quiet', 'no request log lines')
  .option('--violation <name>', 'break one rule of the interface on purpose (conformance kit self-test)')
  .action(async (opts) => {
    await runServe(opts);
  });

program
  .command('openapi')
  .description('print or write the generated OpenAPI 3.1 document')
  .option('--format <format>', 'json or yaml', 'json')
  .option('--out <file>', 'write to a file instead of stdout')
  .option('--version <version>', 'published interface version')
  .option('--server <url...>', 'server URLs to write into the document')
  .action((opts) => {
    const text = writeOpenApi(opts);
    if (!opts.out) process.stdout.write(text);
  });

const conformance = program.command('conformance').description('check any deployment against the interface');
// Usage errors of the kit exit with 2 (exit code 1 means "a MUST check failed").
conformance.exitOverride();

conformance
  .command('run')
  .description('run the conformance checks against a deployment (exit 0: conformant, 1: a MUST failed, 2: usage or connection error)')
  .option('--base-url <url>', 'the deployment, e.g. https://staging.example (env NCS_BASE_URL)')
  .option('--alt-base-url <url>', 'its second address (env NCS_ALT_BASE_URL)')
  .option('--tenant <id>', 'x-service-tenant for authenticated calls (env NCS_TENANT)')
  .option('--token <token>', 'bearer token (env NCS_TOKEN)')
  .option('--client-id <id>', 'client credentials instead of --token (env NCS_CLIENT_ID)')
  .option('--client-secret <secret>', '(env NCS_CLIENT_SECRET)')
  .option('--token-url <url>', 'token endpoint (default: the deployment profile\'s /oauth/token; env NCS_TOKEN_URL)')
  .option('--scope <scopes>', 'scopes to request with client credentials (env NCS_SCOPE)')
  .option('--profile <profile>', 'full or read-only (default: read-only for production targets; env NCS_PROFILE)')
  .option('--environment <env>', 'declare the target environment, e.g. production (env NCS_ENVIRONMENT)')
  .option('--allow-mutations', 'let modifying checks run against production (env NCS_ALLOW_MUTATIONS=1)')
  .option('--grep <pattern>', 'only checks whose name, tag or section matches (env NCS_GREP)')
  .option('--reporter <list>', 'console,json,junit (env NCS_REPORTER)', undefined)
  .option('--output <dir>', 'directory for json and junit reports (default conformance-results; env NCS_OUTPUT)')
  .option('--timeout <ms>', 'per request, milliseconds (default 10000; env NCS_TIMEOUT)')
  .option('--concurrency <n>', 'checks run at once (default 4)')
  .option('--deployment-profile <file>', 'JSON file with what the interface does not show (env NCS_DEPLOYMENT_PROFILE)')
  .action(async (opts) => {
    process.exit(await runConformanceCommand(opts));
  });

conformance
  .command('list')
  .description('list the checks with severity and interface section')
  .option('--format <format>', 'table, markdown or json', 'table')
  .action((opts) => {
    process.stdout.write(listChecks(opts.format));
  });

program.parseAsync().catch((err: unknown) => {
  // Commander already printed its message (or the help, exit code 0).
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
  process.stderr.write(`ncs: ${err instanceof FixtureError || err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
