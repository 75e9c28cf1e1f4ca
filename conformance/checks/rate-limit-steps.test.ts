import { describe, expect, it } from 'vitest';
import { countOfItsOwn, stepVerdict } from './rate-limit-steps.ts';

describe('rate-limit.remaining-steps', () => {
  it('finds a middle answer reporting more calls left than the next read continues from', () => {
    expect(stepVerdict([90, 89, 100, 87])).toBe('jump');
    expect(stepVerdict([90, 89, 100, 88])).toBe('jump');
    // A call reported as not counted that the next call pays for: the read after falls by two.
    expect(stepVerdict([90, 89, 89, 87])).toBe('jump');
  });
  it('takes a window that ends or a bucket refilled between any two calls, and weighted calls', () => {
    expect(stepVerdict([90, 89, 88, 87])).toBe('alike');
    expect(stepVerdict([90, 89, 89, 88])).toBe('alike'); // a call not counted at all
    expect(stepVerdict([90, 89, 99, 98])).toBe('alike'); // a new window before the middle call
    expect(stepVerdict([90, 89, 88, 99])).toBe('alike'); // a new window before the last read
    expect(stepVerdict([90, 87, 95, 92])).toBe('alike'); // a read costs three
  });
  it('leaves values it cannot compare unjudged', () => {
    expect(stepVerdict([90, 90, 100, 80])).toBe('unread'); // a refill between the reads: no cost measured
    expect(stepVerdict([90, undefined, 100, 80])).toBe('unread');
  });

  it('reads middle calls counting down on their own across tries as a limit of their route', () => {
    expect(countOfItsOwn([284, 283, 282])).toBe(true);
    expect(countOfItsOwn([300, 300, 300])).toBe(false); // a fresh window reported each time
    expect(countOfItsOwn([89, 86, 83])).toBe(false); // the reads' count, continued
    expect(countOfItsOwn([284, undefined, 282])).toBe(false);
  });
});
