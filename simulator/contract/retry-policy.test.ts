import { describe, expect, it } from 'vitest';
import { INTERFACE_RETRY_POLICY, parseRetryAfter, retryDelayMs, withRetry } from './retry-policy.ts';

/** A scripted server: answers the statuses in order, with optional Retry-After values. */
function scripted(statuses: number[], retryAfter: (string | null)[] = []) {
  let i = 0;
  return async () => {
    const status = statuses[Math.min(i, statuses.length - 1)]!;
    const ra = retryAfter[i] ?? null;
    i++;
    return { status, headers: { get: (name: string) => (name === 'retry-after' ? ra : null) } };
  };
}

/** A fake clock whose sleep only records. */
function fakeClock() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('interface retry policy', () => {
  it('states the interface numbers', () => {
    expect(INTERFACE_RETRY_POLICY).toEqual({
      maxAttempts: 4,
      baseDelayMs: 500,
      maxJitterMs: 250,
      retryStatuses: [429, 500],
    });
  });

  it('waits 500, 1000, 2000 ms plus jitter between four attempts, then gives up', async () => {
    const clock = fakeClock();
    const { result, attempts } = await withRetry(scripted([500, 500, 429, 500, 200]), {
      sleep: clock.sleep,
      random: () => 0,
    });
    expect(attempts).toBe(4);
    expect(result.status).toBe(500);
    expect(clock.waits).toEqual([500, 1000, 2000]);
  });

  it('adds up to 250 ms of random spread', async () => {
    const clock = fakeClock();
    await withRetry(scripted([429, 429, 200]), { sleep: clock.sleep, random: () => 0.999 });
    expect(clock.waits).toEqual([500 + 249, 1000 + 249]);
    expect(retryDelayMs(2, { random: () => 0.5 })).toBe(2000 + 125);
  });

  it('stops at the first answer that is not 429 or 500', async () => {
    for (const status of [200, 400, 401, 404, 409, 428, 502, 503]) {
      const clock = fakeClock();
      const { attempts } = await withRetry(scripted([status]), { sleep: clock.sleep });
      expect(attempts, String(status)).toBe(1);
      expect(clock.waits).toEqual([]);
    }
    const clock = fakeClock();
    const { result, attempts } = await withRetry(scripted([429, 500, 201]), { sleep: clock.sleep, random: () => 0 });
    expect([result.status, attempts]).toEqual([201, 3]);
  });

  it('honours Retry-After when it is longer than the backoff, not when shorter', async () => {
    const clock = fakeClock();
    await withRetry(scripted([429, 429, 429, 200], ['3', '0', '1']), { sleep: clock.sleep, random: () => 0 });
    expect(clock.waits).toEqual([3000, 1000, 2000]);
  });

  it('reads Retry-After as an HTTP date against the injected clock', async () => {
    const now = () => Date.parse('2026-07-01T10:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jul 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('garbage', now)).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('1.5')).toBe(1500);
    const clock = fakeClock();
    await withRetry(scripted([429, 200], ['Wed, 01 Jul 2026 10:00:04 GMT']), {
      sleep: clock.sleep,
      random: () => 0,
      now,
    });
    expect(clock.waits).toEqual([4000]);
  });

  it('returns the answer instead of sitting out a wait beyond maxWaitMs', async () => {
    const clock = fakeClock();
    const seen: number[] = [];
    const { result, attempts } = await withRetry(scripted([429, 200], ['3600']), {
      sleep: clock.sleep,
      maxWaitMs: 60_000,
      onRetry: (r) => seen.push(r.waitMs),
    });
    expect([result.status, attempts]).toEqual([429, 1]);
    expect(clock.waits).toEqual([]);
    expect(seen).toEqual([]);
  });
});
