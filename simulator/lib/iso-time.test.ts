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
});
