// `ncs webhook sign|verify` and `ncs audit verify`: commander wiring (logic in simulator/cli/).
import type { Command, CommanderError } from 'commander';
import { auditVerifyFile } from '../../simulator/cli/audit-command.ts';
import { readBody, webhookSign, webhookVerify } from '../../simulator/cli/webhook-command.ts';

export function registerVerifyCommands(program: Command) {
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
}
