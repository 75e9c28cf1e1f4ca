import { describe, expect, it } from 'vitest';
import { checkRetryPolicy, DEFAULT_RETRY_POLICY, retryDelayMs } from './retry-policy.ts';

describe('retry policy', () => {
  it('doubles from 1 s with up to 20 % jitter by default', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, DEFAULT_RETRY_POLICY, () => 0))).toEqual([
      1_000, 2_000, 4_000, 8_000,
    ]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, DEFAULT_RETRY_POLICY, () => 1))).toEqual([
      1_200, 2_400, 4_800, 9_600,
    ]);
    expect(retryDelayMs(3, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(4_400);
    for (let i = 0; i < 200; i++) {
      const d = retryDelayMs(2);
      expect(d).toBeGreaterThanOrEqual(2_000);
      expect(d).toBeLessThanOrEqual(2_400);
    }
  });
  it('caps at maxDelayMs and validates policies', () => {
    expect(retryDelayMs(30, DEFAULT_RETRY_POLICY, () => 1)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
    expect(checkRetryPolicy(DEFAULT_RETRY_POLICY)).toBe(DEFAULT_RETRY_POLICY);
    expect(() => checkRetryPolicy({ ...DEFAULT_RETRY_POLICY, maxAttempts: 0 })).toThrow(RangeError);
    expect(() => checkRetryPolicy({ ...DEFAULT_RETRY_POLICY, jitterRatio: 2 })).toThrow(RangeError);
    expect(() => checkRetryPolicy({ ...DEFAULT_RETRY_POLICY, maxDelayMs: 10 })).toThrow(RangeError);
  });
});
