import { describe, expect, it } from 'vitest';
import { faultText } from './run-check.ts';

describe('faultText', () => {
  it('keeps the name and first line of a kit fault, never its stack trace (round 9)', () => {
    const err = new RangeError('Maximum call stack size exceeded');
    expect(faultText(err)).toBe('RangeError: Maximum call stack size exceeded');
    expect(faultText(new Error(`two\nlines ${'x'.repeat(1000)}`))).toBe('Error: two');
    expect(faultText(new Error('y'.repeat(1000))).length).toBeLessThanOrEqual(301);
  });
});
