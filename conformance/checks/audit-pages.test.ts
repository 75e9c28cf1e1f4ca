import { describe, expect, it } from 'vitest';
import { pageGaps } from './audit-pages.ts';

describe('pageGaps', () => {
  const large = ['10', '9', '8', '7', '6', '5', '4', '3', '2', '1'];

  it('finds an entry beside a boundary that the small pages skipped, whatever order they read in', () => {
    expect(pageGaps(large, ['10', '9', '8', '7', '5', '4', '3', '2'])).toEqual({
      repeated: [],
      skipped: ['6'],
      shared: 8,
    });
    // A tail-style log: each short page lists the newest entries oldest first, the next page the ones before.
    expect(pageGaps(large, ['7', '8', '9', '10', '3', '4', '5', '6'])).toEqual({
      repeated: [],
      skipped: [],
      shared: 8,
    });
  });

  it('finds an entry two pages repeat, and ignores entries the large read did not reach', () => {
    expect(pageGaps(large, ['10', '9', '8', '8', '7', '0', '-1'])).toEqual({ repeated: ['8'], skipped: [], shared: 4 });
    expect(pageGaps(large, ['12', '11'])).toEqual({ repeated: [], skipped: [], shared: 0 });
  });
});
