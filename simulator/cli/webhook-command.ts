import { readFileSync } from 'node:fs';
import { LIMITS } from '../contract/limits.ts';
import { signWebhook, verifyWebhook, type VerifyFailureReason } from '../contract/webhook-signature.ts';

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

/** The exact bytes of a body: from a file, or stdin when no file is given. */
export function readBody(file?: string): Buffer {
  try {
    return readFileSync(file ?? 0);
  } catch (err) {
    throw new Error(`cannot read the body from ${file ?? 'stdin'}: ${(err as Error).message}`);
  }
}

function secretOf(secret: string | undefined, env: NodeJS.ProcessEnv): string {
  const s = secret ?? env.NCS_WEBHOOK_SECRET;
  if (!s) throw new Error('give the signing secret with --secret or the environment variable NCS_WEBHOOK_SECRET');
  return s;
}

function unixSeconds(name: string, value: string): number {
  if (!/^\d{1,15}$/.test(value))
    throw new Error(`${name} must be unix seconds (digits only), not "${value.slice(0, 40)}"`);
  return Number(value);
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
