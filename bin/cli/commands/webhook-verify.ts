// `ncs webhook verify`: exit code 0 for a valid delivery, 1 with the reason when not.
import type { Command } from 'commander';
import { LIMITS } from '../../../simulator/contract/limits.ts';
import { verifyWebhook, type VerifyFailureReason } from '../../../simulator/contract/webhook-signature.ts';
import { readBody, secretOf, unixSeconds } from './webhook-input.ts';

export interface WebhookVerifyOptions {
  secret?: string;
  header: string;
  /** Seconds (default 300). */
  tolerance?: string;
  /** Unix seconds to judge the timestamp against (default: now), e.g. to re-check a saved delivery. */
  now?: string;
}

export function registerWebhookVerify(webhook: Command): void {
  webhook
    .command('verify')
    .description('check a delivery: exit 0 when valid, 1 with the reason when not')
    .requiredOption('--header <value>', 'the signature header value as received')
    .option('--secret <secret>', 'signing secret (default: env NCS_WEBHOOK_SECRET)')
    .option('--file <path>', 'raw body file (default: stdin)')
    .option('--tolerance <seconds>', 'largest accepted clock difference (default: 300)')
    .option('--now <unix-seconds>', 'judge the timestamp against this time instead of now')
    .action((opts: WebhookVerifyOptions & { file?: string }) => {
      const r = webhookVerify(opts, readBody(opts.file));
      (r.exitCode === 0 ? process.stdout : process.stderr).write(`${r.message}\n`);
      process.exitCode = r.exitCode;
    });
}

const EXPLAIN: Record<VerifyFailureReason, string> = {
  malformed: 'the header is not of the form t=<unix-seconds>,v1=<64 hex digits>',
  mismatch: 'no v1 signature matches this body and secret (the body must be byte-for-byte what was received)',
  stale: 'the signature is genuine but its timestamp is older than the tolerance allows',
  future: 'the signature is genuine but its timestamp lies further in the future than the tolerance allows',
};

/**
 * `ncs webhook verify`: exit code 0 for a valid delivery, 1 with the reason otherwise.
 * @example webhookVerify({ secret: 'whsec_x', header: 't=…,v1=…' }, body) // { exitCode: 0, message: 'valid: …' }
 */
export function webhookVerify(
  opts: WebhookVerifyOptions,
  body: Uint8Array,
  env: NodeJS.ProcessEnv = process.env,
  now = Date.now(),
): { exitCode: 0 | 1; message: string } {
  const tolerance =
    opts.tolerance !== undefined ? unixSeconds('--tolerance', opts.tolerance) : LIMITS.webhookToleranceSeconds;
  const nowSeconds = opts.now !== undefined ? unixSeconds('--now', opts.now) : now / 1000;
  const result = verifyWebhook(body, opts.header, secretOf(opts.secret, env), {
    toleranceSeconds: tolerance,
    now: nowSeconds,
  });
  if (!result.ok) {
    const age = /(?:^|,)\s*t=(\d+)/.exec(opts.header)?.[1];
    const when =
      result.reason === 'stale' || result.reason === 'future'
        ? ` (t=${age}, ${Math.abs(Math.round(nowSeconds - Number(age)))} s off, tolerance ${tolerance} s)`
        : '';
    return { exitCode: 1, message: `invalid: ${result.reason}: ${EXPLAIN[result.reason]}${when}` };
  }
  const ageSeconds = Math.round(nowSeconds - result.timestamp);
  return {
    exitCode: 0,
    message: `valid: signature matches, t=${result.timestamp} (${ageSeconds >= 0 ? `${ageSeconds} s ago` : `${-ageSeconds} s ahead`}, tolerance ${tolerance} s)`,
  };
}
