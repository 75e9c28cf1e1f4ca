#!/usr/bin/env node
// The ncs command: option parsing only; every command is a library function.
import { Command, CommanderError } from 'commander';
import { runServe } from '../simulator/cli/serve-command.ts';
import { writeOpenApi } from '../simulator/cli/openapi-command.ts';
import { requestToken } from '../simulator/cli/token-command.ts';
import { FixtureError } from '../simulator/app/fixtures-loader.ts';
import { registerSandboxCommands } from './commands/sandbox.ts';
import { registerVerifyCommands } from './commands/verify.ts';
import { registerConformanceCommands } from './commands/conformance.ts';

const program = new Command('ncs').description('Network Connections Service sandbox: simulator and conformance kit');

program
  .command('serve')
  .description('start the simulator over HTTP with the built-in (or given) fixtures')
  .option('--host <host>', 'address to listen on (loopback by default)', '127.0.0.1')
  .option('--port <port>', 'port to listen on', '4010')
  .option('--alt-port <port>', "also listen here: the interface's alternate base URL (0: any free port)")
  .option('--fixtures <file>', 'JSON fixture set to load instead of the built-in hospitality network')
  .option('--ready-file <path>', 'write {baseUrl, token, tenant, adminToken, inspectorUrl} as JSON once listening')
  .option('--token-ttl <seconds>', 'lifetime of issued access tokens')
  .option('--admin-token <token>', 'control-plane token (default: random; env NCS_ADMIN_TOKEN)')
  .option('--allow-browser-credentials', 'accept credentials sent with an Origin header (local tooling)')
  .option('--data-dir <dir>', 'persist state (SQLite) in this folder; survives restarts and kill -9')
  .option('--quiet', 'no request log lines')
  .option(
    '--rate-limit <calls/seconds>',
    'calls per window per access, tenant and environment, e.g. 600/60 (the default), or off',
  )
  .option('--rate-limit-preset <name>', 'a named rate limit: default (600/60) or low (5/10, for testing retry logic)')
  .option('--refresh-token-ttl <seconds>', 'lifetime of each refresh token (default 86400)')
  .option('--violation <name>', 'break one rule of the interface on purpose (conformance kit self-test)')
  .option(
    '--stream-limit <perFeed/all>',
    'open status streams per feed and in all (default 1000/20000), e.g. 10000/20000 for load tests',
  )
  .option('--public-url <url>', 'origin clients reach the server at: the OAuth issuer (default: the listening address)')
  .option('--webhook-allow-host <host...>', 'also deliver webhooks to these hosts (name, *.domain, IP or *)')
  .option('--journal-size <calls>', "calls kept in the inspector's request journal (default 500)")
  .option('--no-inspector', 'serve no inspector page and keep no request journal')
  .action(async (opts) => {
    // The violations belong to the kit's self-test: the simulator only receives the wrapper.
    const sandbox = opts.violation
      ? (await import('../conformance/violations/index.ts')).violationOptions(opts.violation)
      : undefined;
    await runServe({ ...opts, ...(sandbox ? { sandbox } : {}) });
  });

program
  .command('token')
  .description('get an access token from a running simulator by client credentials (for curl)')
  .option('--base-url <url>', 'where the simulator runs, origin or …/api/public/v1 (env NCS_BASE_URL)')
  .requiredOption('--client-id <id>', 'OAuth client or service account from the fixtures')
  .requiredOption(
    '--client-secret <secret>',
    'its secret (env NCS_CLIENT_SECRET works too)',
    process.env.NCS_CLIENT_SECRET,
  )
  .option('--scope <scopes>', 'space- or comma-separated scopes (default: all of the client)')
  .option('--json', 'print the whole token answer as JSON')
  .action(async (opts) => {
    process.stdout.write(`${await requestToken(opts)}\n`);
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

registerSandboxCommands(program);
registerVerifyCommands(program);
registerConformanceCommands(program);

// A closed pipe (`ncs openapi | head`) ends the output, not the process with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

/** Every command answers a usage error with one line and exit 2 (exit 1 means "checked, and failed"). */
function oneLineUsageErrors(cmd: Command, path: string): void {
  cmd.exitOverride();
  cmd.configureOutput({
    outputError: (text, write) =>
      write(
        `${path}: ${text
          .replace(/^error: /, '')
          .replace(/\s*\n\s*/g, ' ')
          .trim()} (see ${path} --help)\n`,
      ),
  });
  for (const sub of cmd.commands) oneLineUsageErrors(sub, `${path} ${sub.name()}`);
}
oneLineUsageErrors(program, 'ncs');

program.parseAsync().catch((err: unknown) => {
  // Commander already printed its one line (or the help, exit code 0).
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
  process.stderr.write(`ncs: ${err instanceof FixtureError || err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
