import { describe, expect, it } from 'vitest';
import { jsonDiff } from './json-diff.ts';

describe('jsonDiff', () => {
  it('names each differing leaf with its path, the reference value and the observed one', () => {
    expect(
      jsonDiff(
        { count: 2, providers: [{ id: 'a', name: 'A' }, { id: 'b' }], 'odd key': true },
        { count: 1, providers: [{ id: 'a', name: 'B' }], 'odd key': true },
      ),
    ).toEqual([
      { path: '$.count', expected: '2', observed: '1' },
      { path: '$.providers[0].name', expected: '"A"', observed: '"B"' },
      { path: '$.providers[1]', expected: '{"id":"b"}', observed: '(absent)' },
    ]);
  });

  it('is empty for equal values and bounded for many differences', () => {
    expect(jsonDiff({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toEqual([]);
    const many = jsonDiff(
      Array.from({ length: 30 }, (_, i) => i),
      Array.from({ length: 30 }, (_, i) => -i - 1),
      5,
    );
    expect(many).toHaveLength(6);
    expect(many[5]).toEqual({ path: '…', expected: '25 more differences', observed: '' });
    expect(jsonDiff('x', { a: 1 })).toEqual([{ path: '$', expected: '"x"', observed: '{"a":1}' }]);
  });
});
