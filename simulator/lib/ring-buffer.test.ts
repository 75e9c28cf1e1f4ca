import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ring-buffer.ts';

describe('RingBuffer', () => {
  it('keeps the newest `capacity` items in order and reports what it drops', () => {
    const r = new RingBuffer<number>(3);
    expect(r.push(1)).toBeUndefined();
    r.push(2);
    r.push(3);
    expect(r.push(4)).toBe(1);
    expect(r.slice()).toEqual([2, 3, 4]);
    expect([r.oldest(), r.newest(), r.size]).toEqual([2, 4, 3]);
    expect(r.at(3)).toBeUndefined();
    expect(r.at(-1)).toBeUndefined();
    expect(r.slice(1, 2)).toEqual([3]);
    r.clear();
    expect(r.size).toBe(0);
    expect(r.newest()).toBeUndefined();
  });

  it('behaves like "keep the last n of an array" for any push sequence', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.integer(), { maxLength: 100 }), (cap, items) => {
        const r = new RingBuffer<number>(cap);
        for (const i of items) r.push(i);
        expect(r.slice()).toEqual(items.slice(-cap));
      }),
    );
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
    expect(() => new RingBuffer(1.5)).toThrow(RangeError);
  });
});
