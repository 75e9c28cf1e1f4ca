import { ERROR_TABLE } from './errors.ts';

/**
 * The retry guidance of the interface (Errors section) as a reusable helper: retry only after
 * rate_limited (429) and internal (500), at most 4 attempts, waiting 500 ms × 2^n plus up to 250 ms
 * of random spread after the n-th failed attempt (n = 0 for the first), and waiting the server's
 * Retry-After instead whenever that is longer.
 */
export const INTERFACE_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxJitterMs: 250,
  retryStatuses: [ERROR_TABLE.rate_limited.status, ERROR_TABLE.internal.status],
};

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxJitterMs: number;
  retryStatuses: readonly number[];
}

export interface RetryOptions {
  policy?: RetryPolicy;
  /** Waits `ms`; inject a fake in tests (default: a real timer). */
  sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1); inject a fixed one in tests (default: Math.random). */
  random?: () => number;
  /** Clock for Retry-After given as an HTTP date (default: Date.now). */
  now?: () => number;
  /**
   * A wait longer than this is not sat out: the last answer is returned instead (a Retry-After of
   * an hour must not hang a CI job). Default 60 s.
   */
  maxWaitMs?: number;
  /** Told about every wait before it starts. */
  onRetry?: (info: { attempt: number; status: number; waitMs: number }) => void;
}

/** Whether an answer with this status may be retried under the policy. */
export function isRetryable(status: number, policy: RetryPolicy = INTERFACE_RETRY_POLICY): boolean {
  return policy.retryStatuses.includes(status);
}

/**
 * Retry-After in milliseconds (delta-seconds or an HTTP date), undefined when absent or unreadable.
 * @example parseRetryAfter('2') // 2000
 */
export function parseRetryAfter(value: string | null | undefined, now: () => number = Date.now): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/**
 * The wait after failed attempt `attempt` (0-based): 500·2^attempt + jitter, or Retry-After when longer.
 * @example retryDelayMs(1, { random: () => 0.5 }) // 1000 + 125
 */
export function retryDelayMs(
  attempt: number,
  opts: { retryAfter?: string | null; random?: () => number; now?: () => number; policy?: RetryPolicy } = {},
): number {
  const policy = opts.policy ?? INTERFACE_RETRY_POLICY;
  const random = opts.random ?? Math.random;
  const backoff = policy.baseDelayMs * 2 ** attempt + Math.floor(random() * policy.maxJitterMs);
  const asked = parseRetryAfter(opts.retryAfter, opts.now);
  return asked !== undefined && asked > backoff ? asked : backoff;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `attempt` until it answers with a status the policy does not retry, or attempts run out.
 * @example const { result, attempts } = await withRetry(() => fetch(url), {});
 */
export async function withRetry<T extends { status: number; headers: { get(name: string): string | null } }>(
  attempt: (n: number) => Promise<T>,
  opts: RetryOptions = {},
): Promise<{ result: T; attempts: number }> {
  const policy = opts.policy ?? INTERFACE_RETRY_POLICY;
  const sleep = opts.sleep ?? realSleep;
  const maxWait = opts.maxWaitMs ?? 60_000;
  for (let n = 0; ; n++) {
    const result = await attempt(n);
    if (!isRetryable(result.status, policy) || n + 1 >= policy.maxAttempts) return { result, attempts: n + 1 };
    const waitMs = retryDelayMs(n, {
      retryAfter: result.headers.get('retry-after'),
      policy,
      ...(opts.random ? { random: opts.random } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    });
    if (waitMs > maxWait) return { result, attempts: n + 1 };
    opts.onRetry?.({ attempt: n, status: result.status, waitMs });
    await sleep(waitMs);
  }
}
