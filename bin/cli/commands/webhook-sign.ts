// `ncs webhook sign`: the signature header value for a body.
import type { Command } from 'commander';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import { readBody, secretOf, unixSeconds } from './webhook-input.ts';

export interface WebhookSignOptions {
  /** Signing secret; default: env NCS_WEBHOOK_SECRET (keeps it out of the process list). */
  secret?: string;
  /** Unix seconds; default: now. */
  timestamp?: string;
}

export function registerWebhookSign(webhook: Command): void {
  webhook
    .command('sign')
    .description('print the signature header value for a body (from --file or stdin)')
    .option('--secret <secret>', 'signing secret (default: env NCS_WEBHOOK_SECRET)')
    .option('--timestamp <unix-seconds>', 'timestamp to sign with (default: now)')
    .option('--file <path>', 'body file, taken byte for byte (default: stdin)')
    .action((opts: WebhookSignOptions & { file?: string }) => {
      process.stdout.write(`${webhookSign(opts, readBody(opts.file))}\n`);
    });
}

/**
 * `ncs webhook sign`: the signature header value for a body.
 * @example webhookSign({ secret: 'whsec_x', timestamp: '1767225600' }, readBody('event.json')) // 't=1767225600,v1=…'
 */
export function webhookSign(
  opts: WebhookSignOptions,
  body: Uint8Array,
  env: NodeJS.ProcessEnv = process.env,
  now = Date.now(),
): string {
  const t = opts.timestamp !== undefined ? unixSeconds('--timestamp', opts.timestamp) : Math.floor(now / 1000);
  return signWebhook(body, secretOf(opts.secret, env), t);
}
