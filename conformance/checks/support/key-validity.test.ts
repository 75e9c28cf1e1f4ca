import { describe, expect, it } from 'vitest';
import { KEY_FLOOR_MS, replayUnjudged } from './key-validity.ts';

describe('replayUnjudged', () => {
  it('judges a made-up key within a second of its first use, not later', () => {
    expect(replayUnjudged({ firstSentAt: 10_000 }, 10_000 + KEY_FLOOR_MS)).toBeUndefined();
    expect(replayUnjudged({ firstSentAt: 10_000 }, 10_000 + KEY_FLOOR_MS + 1)).toMatch(/validity is not shown/);
  });
  it('judges an issued key until a second before its expiresAt, however long after its first use', () => {
    expect(replayUnjudged({ firstSentAt: 0, expiresAt: 60_000 }, 50_000)).toBeUndefined();
    expect(replayUnjudged({ firstSentAt: 49_500, expiresAt: 50_500 }, 49_600)).toMatch(/expires at/);
  });
  it('reads an unreadable expiresAt as none', () => {
    expect(replayUnjudged({ firstSentAt: 0, expiresAt: Number.NaN }, 500)).toBeUndefined();
  });
});
