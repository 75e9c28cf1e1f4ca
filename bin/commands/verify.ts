// `ncs webhook sign|verify` and `ncs audit verify`: commander wiring (logic in simulator/cli/).
import type { Command, CommanderError } from 'commander';
import { auditVerifyFile } from '../../simulator/cli/audit-command.ts';
import { readBody, webhookSign, webhookVerify } from '../../simulator/cli/webhook-command.ts';
import { listenForWebhooks } from '../../simulator/cli/webhook-listen.ts';
import { readFileSync } from 'node:fs';

export function registerVerifyCommands(program: Command) {
  // Exit 1 means "invalid" for the verify commands, so usage errors there exit 2.
  const usageExit = (err: CommanderError) => process.exit(err.exitCode === 0 ? 0 : 2);
  const report = (r: { exitCode: number; message: string }) => {
    (r.exitCode === 0 ? process.stdout : process.stderr).write(`${r.message}\n`);
    process.exitCode = r.exitCode;
  };

  const webhook = program
    .command('webhook')
    .description('sign and verify webhook deliveries (t=<unix-seconds>,v1=<hex>)');
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

  webhook
    .command('listen')
    .description('register a receiver on a running simulator, print each delivery and forward it to a local URL')
    .option('--base-url <url>', 'simulator base URL (env NCS_BASE_URL)')
    .option('--token <token>', 'bearer token (env NCS_TOKEN)')
    .option('--tenant <id>', 'tenant (env NCS_TENANT)')
    .option('--ready-file <path>', 'read base URL, token and tenant from ncs serve --ready-file')
    .option('--events <list>', 'comma-separated event names (default: all)')
    .option('--forward-to <url>', 'forward each delivery to this local URL')
    .option('--port <port>', 'port of the local receiver (default: any free one)')
    .action(async (o) => {
      const ready = o.readyFile ? JSON.parse(readFileSync(o.readyFile, 'utf8')) : {};
      const baseUrl = o.baseUrl ?? ready.baseUrl ?? process.env.NCS_BASE_URL ?? 'http://127.0.0.1:4010';
      const token = o.token ?? ready.token ?? process.env.NCS_TOKEN;
      const tenant = o.tenant ?? ready.tenant ?? process.env.NCS_TENANT;
      if (!token || !tenant) throw new Error('webhook listen needs --token and --tenant (or --ready-file)');
      await listenForWebhooks({
        baseUrl,
        token,
        tenant,
        ...(o.events ? { events: o.events.split(',') } : {}),
        ...(o.forwardTo ? { forwardTo: o.forwardTo } : {}),
        ...(o.port ? { port: Number(o.port) } : {}),
      });
    });

  program
    .command('audit')
    .description('audit-log tools')
    .command('verify <file>')
    .description('recompute the hash chain and proof of a saved GET /audit-log response: exit 0 intact, 1 not')
    .exitOverride(usageExit)
    .action((file: string) => report(auditVerifyFile(file)));
}
