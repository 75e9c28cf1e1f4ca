import { describe, expect, it } from 'vitest';
import { evaluateClientRules } from './report.ts';
import { RENEWAL_GRACE_MS, STEADY_RUN_MS, steadyCadence } from './rules-token.ts';
import { call, observed, testToken } from './test-records.ts';

const verdictOf = (calls: ReturnType<typeof call>[]) =>
  evaluateClientRules(observed(calls), []).rules.find((r) => r.id === 'auth.renewed-after-expiry');

/** A token that expired at 1,000 ms. */
const EXPIRED = { ...testToken(0), expiresAt: 1_000 };

describe('auth.renewed-after-expiry', () => {
  it('fails a token refused as expired that is sent again past the renewal grace, whatever each call asks', () => {
    const calls = [0, 1, 2, 3].map((i) =>
      call({ at: 2_000 + i * 10_000, token: EXPIRED, status: 401, path: `/api/public/v1/providers?category=c${i}` }),
    );
    const v = verdictOf(calls);
    expect(v?.status).toBe('fail');
    expect(v?.evidence[0]?.note).toMatch(/sent 3 more time\(s\), the first 10 s after the 401/);
  });

  it('passes a renewal after the 401, and the old token on calls sent while the renewal was under way', () => {
    const renewed = testToken(2_100);
    const inFlight = [2_000, 2_050, 2_000 + RENEWAL_GRACE_MS].map((at) => call({ at, token: EXPIRED, status: 401 }));
    const v = verdictOf([...inFlight, call({ at: 8_000, token: renewed })]);
    expect(v?.status).toBe('pass');
  });

  it('judges only 401s to a token that had expired: a 401 for another cause, or before expiry, says nothing', () => {
    expect(verdictOf([0, 10_000].map((at) => call({ at: at + 100, token: testToken(0), status: 401 })))?.status).toBe(
      'not-observed',
    );
    expect(
      verdictOf([call({ at: 500, token: EXPIRED, status: 401 }), call({ at: 20_000, token: EXPIRED })])?.status,
    ).toBe('not-observed');
  });
});

describe('steadyCadence (how far a poller taking a token per collection reaches)', () => {
  it('reaches 1.25 times the longest spacing of a steady, short cadence of new tokens', () => {
    expect(steadyCadence([0, 10_500, 21_800, 32_000])).toBe(14_125);
  });
  it('reaches an uneven cadence too, while no spacing is over STEADY_RUN_MS (events 10-25 s apart)', () => {
    expect(steadyCadence([0, 11_000, 35_000, 47_000])).toBe(30_000);
  });
  it('is zero for a back-off past 30 s (10, 20, 40 s), fewer than three spacings, or a cadence over STEADY_RUN_MS', () => {
    expect(steadyCadence([0, 10_000, 30_000, 70_000])).toBe(0);
    expect(steadyCadence([0, 10_000, 20_000])).toBe(0);
    expect(steadyCadence([0, 5_000, 19_000, 43_000])).toBe(0);
    const slow = STEADY_RUN_MS + 1_000;
    expect(steadyCadence([0, slow, 2 * slow, 3 * slow])).toBe(0);
  });
  it('reaches a cadence whose spacings alternate across STEADY_RUN_MS while every two in a row stay under it', () => {
    // Reads 20 and 35 s apart in turn (27.5 on average): one process's cadence, reaching 1.25 x 35 s.
    expect(steadyCadence([0, 20_000, 55_000, 75_000, 110_000])).toBe(43_750);
    // Two schedules a minute each, 12 s apart (12 and 48 s in turn, 30 on average), however many runs.
    expect(steadyCadence([0, 12_000, 60_000, 72_000, 120_000, 132_000])).toBe(0);
    expect(steadyCadence([0, 1_000, 59_000, 60_000, 118_000, 119_000])).toBe(0);
    // One long spacing after short ones ends the cadence.
    expect(steadyCadence([0, 5_000, 10_000, 15_000, 20_000, 76_000])).toBe(0);
  });
});
