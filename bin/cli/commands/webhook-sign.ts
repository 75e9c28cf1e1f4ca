// `ncs webhook sign`: the signature header value for a body (computed in webhook-signing.ts).
import type { Command } from 'commander';
import { readBody } from './webhook-input.ts';
import type { WebhookSignOptions } from './webhook-signing.ts';

export function registerWebhookSign(webhook: Command): void {
  webhook
    .command('sign')
    .description('print the signature header value for a body (from --file or stdin)')
    .option('--secret <secret>', 'signing secret (default: env NCS_WEBHOOK_SECRET)')
    .option('--timestamp <unix-seconds>', 'timestamp to sign with (default: now)')
    .option('--file <path>', 'body file, taken byte for byte (default: stdin)')
    .action(async (opts: WebhookSignOptions & { file?: string }) => {
      const { webhookSign } = await import('./webhook-signing.ts');
      process.stdout.write(`${webhookSign(opts, readBody(opts.file))}\n`);
    });
}
