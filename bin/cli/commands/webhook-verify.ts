// `ncs webhook verify`: exit code 0 for a valid delivery, 1 with the reason when not (judged in webhook-signing.ts).
import type { Command } from 'commander';
import { readBody } from './webhook-input.ts';
import type { WebhookVerifyOptions } from './webhook-signing.ts';

export function registerWebhookVerify(webhook: Command): void {
  webhook
    .command('verify')
    .description('check a delivery: exit 0 when valid, 1 with the reason when not')
    .requiredOption('--header <value>', 'the signature header value as received')
    .option('--secret <secret>', 'signing secret (default: env NCS_WEBHOOK_SECRET)')
    .option('--file <path>', 'raw body file (default: stdin)')
    .option('--tolerance <seconds>', 'largest accepted clock difference (default: 300)')
    .option('--now <unix-seconds>', 'judge the timestamp against this time instead of now')
    .action(async (opts: WebhookVerifyOptions & { file?: string }) => {
      const { webhookVerify } = await import('./webhook-signing.ts');
      const r = webhookVerify(opts, readBody(opts.file));
      (r.exitCode === 0 ? process.stdout : process.stderr).write(`${r.message}\n`);
      process.exitCode = r.exitCode;
    });
}
