import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.ts';

describe('isoTime', () => {
  it('equals toISOString for any time, repeated or not', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -8.64e15, max: 8.64e15 }), { maxLength: 20 }), (times) => {
        for (const t of [...times, ...times]) expect(isoTime(t)).toBe(new Date(t).toISOString());
      }),
    );
  });

  it('equals toISOString for times within and across one second (the remembered second)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -8.64e15 + 5000, max: 8.64e15 - 5000 }),
        fc.array(fc.integer({ min: -2500, max: 2500 }), { maxLength: 40 }),
        (base, offsets) => {
          for (const o of [0, ...offsets, 0]) expect(isoTime(base + o)).toBe(new Date(base + o).toISOString());
        },
      ),
    );
  });

  it('truncates fractions like Date and throws on times Date cannot show', () => {
    isoTime(1_000_000);
    expect(isoTime(1_000_000.7)).toBe(new Date(1_000_000.7).toISOString());
    expect(isoTime(1_000_005)).toBe('1970-01-01T00:16:40.005Z');
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
