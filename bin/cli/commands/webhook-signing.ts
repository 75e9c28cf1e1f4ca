// What `ncs webhook sign` and `ncs webhook verify` compute (webhook-sign.ts and webhook-verify.ts register
// the commands and load this module when one runs: the signature rule's limits are zod schemas, lazy.ts).
import { LIMITS } from '../../../simulator/contract/limits.ts';
import { signWebhook, type VerifyFailureReason, verifyWebhook } from '../../../simulator/contract/webhook-signature.ts';
import { secretOf, unixSeconds } from './webhook-input.ts';

export interface WebhookSignOptions {
  /** Signing secret; default: env NCS_WEBHOOK_SECRET (keeps it out of the process list). */
  secret?: string;
  /** Unix seconds; default: now. */
  timestamp?: string;
}

export interface WebhookVerifyOptions {
  secret?: string;
  header: string;
  /** Seconds (default 300). */
  tolerance?: string;
  /** Unix seconds to judge the timestamp against (default: now), e.g. to re-check a saved delivery. */
  now?: string;
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
