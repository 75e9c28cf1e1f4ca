import { describe, expect, it } from 'vitest';
import { listed } from './listed.ts';

describe('listed (failure texts)', () => {
  it('names the first items and counts the rest, in either separator', () => {
    expect(listed(['a', 'b', 'c'], 2)).toBe('a; b; and 1 more');
    expect(listed(['a', 'b', 'c'], 2, ', ')).toBe('a, b and 1 more');
    expect(listed(['a', 'b'])).toBe('a; b');
  });
});
