import { describe, expect, it } from 'vitest';
import { sameInstant } from './created-at.ts';

describe('sameInstant (connections.created-at-stable)', () => {
  it('takes any rendering of one instant as the same: offset, letter case, precision', () => {
    expect(sameInstant('2026-07-01T10:00:00.120Z', '2026-07-01T12:00:00.12+02:00')).toBe(true);
    expect(sameInstant('2026-07-01T10:00:00.123Z', '2026-07-01t10:00:00.123417z')).toBe(true);
    // A store keeping whole seconds renders the creation's instant coarser.
    expect(sameInstant('2026-07-01T10:00:00.900Z', '2026-07-01T10:00:00Z')).toBe(true);
  });

  it('tells another instant (the time of a later state change) apart', () => {
    expect(sameInstant('2026-07-01T10:00:00.207Z', '2026-07-01T10:00:02.207Z')).toBe(false);
    // At the coarser precision: two millisecond values 300 ms apart are two instants (a createdAt rewritten at
    // activation); a rounding of microseconds to milliseconds is one.
    expect(sameInstant('2026-07-01T10:00:00.120Z', '2026-07-01T10:00:00.420Z')).toBe(false);
    expect(sameInstant('2026-07-01T10:00:00.1235Z', '2026-07-01T10:00:00.124Z')).toBe(true);
    expect(sameInstant('2026-07-01T10:00:00.1Z', '2026-07-01T10:00:00.180Z')).toBe(true);
    expect(sameInstant('2026-07-01T10:00:00.1Z', '2026-07-01T10:00:00.250Z')).toBe(false);
    expect(sameInstant('2026-07-01T10:00:00Z', '2026-07-01T10:00:00-01:00')).toBe(false);
  });

  it('does not judge a value that is no date-time (connections.schema does)', () => {
    expect(sameInstant('2026-07-01T10:00:00Z', 1782900000000)).toBeUndefined();
    expect(sameInstant('yesterday', '2026-07-01T10:00:00Z')).toBeUndefined();
  });
});
