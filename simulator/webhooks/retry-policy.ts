import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';

export interface RetryPolicy {
  /** Attempts per sequence, the first one included. */
  maxAttempts: number;
  baseDelayMs: number;
  /** Up to this fraction of the delay is added at random, so receivers are not hit in lockstep. */
  jitterRatio: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: WEBHOOK_DEFAULTS.maxAttempts,
  baseDelayMs: WEBHOOK_DEFAULTS.baseDelayMs,
  jitterRatio: WEBHOOK_DEFAULTS.jitterRatio,
  maxDelayMs: WEBHOOK_DEFAULTS.maxDelayMs,
};

/**
 * Wait after failed attempt `n` (1-based) of a sequence: baseDelayMs * 2^(n-1) plus up to jitterRatio
 * of that, capped at maxDelayMs. With the defaults: ~1 s, ~2 s, ~4 s, ~8 s (each + up to 20 %).
 * @example retryDelayMs(3, DEFAULT_RETRY_POLICY, () => 0.5) // 4400
 */
export function retryDelayMs(
  n: number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
): number {
  const base = policy.baseDelayMs * 2 ** Math.max(0, n - 1);
  const jitter = base * policy.jitterRatio * Math.min(1, Math.max(0, random()));
  return Math.round(Math.min(policy.maxDelayMs, base + jitter));
}

/** Refuses a policy that could never deliver or would retry forever. */
export function checkRetryPolicy(policy: RetryPolicy): RetryPolicy {
  const { maxAttempts, baseDelayMs, jitterRatio, maxDelayMs } = policy;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100)
    throw new RangeError(`maxAttempts must be an integer from 1 to 100, not ${maxAttempts}`);
  if (!(baseDelayMs >= 0) || !(maxDelayMs >= baseDelayMs)) throw new RangeError('need 0 <= baseDelayMs <= maxDelayMs');
  if (!(jitterRatio >= 0 && jitterRatio <= 1))
    throw new RangeError(`jitterRatio must be between 0 and 1, not ${jitterRatio}`);
  return policy;
}
