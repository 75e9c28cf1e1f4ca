#!/usr/bin/env node
// The ncs command: option parsing only; every command is a library function.
import { Command, type CommanderError } from 'commander';
import { runServe } from '../simulator/cli/serve-command.ts';
import { writeOpenApi } from '../simulator/cli/openapi-command.ts';
import { FixtureError } from '../simulator/state/fixtures-loader.ts';
import { readBody, webhookSign, webhookVerify } from '../simulator/cli/webhook-command.ts';
import { auditVerifyFile } from '../simulator/cli/audit-command.ts';

const program = new Command('ncs').description('Network Connections Service sandbox: simulator and conformance kit').showHelpAfterError();

program
  .command('serve')
  .description('start the simulator over HTTP with the built-in (or given) fixtures')
  .option('--host <host>', 'address to listen on (loopback by default)', '127.0.0.1')
  .option('--port <port>', 'port to listen on', '4010')
  .option('--fixtures <file>', 'JSON fixture set to load instead of the built-in hospitality network')
  .option('--ready-file <path>', 'write {baseUrl, token, tenant, adminToken} as JSON once listening')
  .option('--token-ttl <seconds>', 'lifetime of issued access tokens')
  .option('--admin-token <token>', 'control-plane token (default: random; env NCS_ADMIN_TOKEN)')
  .option('--allow-browser-credentials', 'accept credentials sent with an Origin header (local tooling)')
  .option('--quiet', 'no request log lines')
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

// Exit 1 means "invalid" for the verify commands, so usage errors there exit 2.
const usageExit = (err: CommanderError) => process.exit(err.exitCode === 0 ? 0 : 2);
const report = (r: { exitCode: number; message: string }) => {
  (r.exitCode === 0 ? process.stdout : process.stderr).write(`${r.message}\n`);
  process.exitCode = r.exitCode;
};

const webhook = program.command('webhook').description('sign and verify webhook deliveries (t=<unix-seconds>,v1=<hex>)');
webhook
  .command('sign')
  .description('print the signature header value for a body (from --file or stdin)')
  .option('--secret <secret>', 'signing secret (default: env NCS_WEBHOOK_SECRET)')
  .option('--timestamp <unix-seconds>', 'timestamp to sign with (default: now)')
  .option('--file <path>', 'body file, taken byte for byte (default: stdin)')
  .exitOverride(usageExit)
  .action((opts) => {
    process.stdout.write(`${webhookSign(opts, readBody(opts.file))}\n`);
  });
webhook
  .command('verify')
  .description('check a delivery: exit 0 when valid, 1 with the reason when not')
  .requiredOption('--header <value>', 'the signature header value as received')
  .option('--secret <secret>', 'signing secret (default: env NCS_WEBHOOK_SECRET)')
  .option('--file <path>', 'raw body file (default: stdin)')
  .option('--tolerance <seconds>', 'largest accepted clock difference (default: 300)')
  .option('--now <unix-seconds>', 'judge the timestamp against this time instead of now')
  .exitOverride(usageExit)
  .action((opts) => report(webhookVerify(opts, readBody(opts.file))));

program
  .command('audit')
  .description('audit-log tools')
  .command('verify <file>')
  .description('recompute the hash chain and proof of a saved GET /audit-log response: exit 0 intact, 1 not')
  .exitOverride(usageExit)
  .action((file: string) => report(auditVerifyFile(file)));

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`ncs: ${err instanceof FixtureError || err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
