import { describe, expect, it } from 'vitest';
import { numberingProblems } from './sse-scenario.ts';

const ids = (...list: (string | undefined)[]) =>
  list.map((id) => ({ ...(id === undefined ? {} : { id }), data: '{}' }));

describe('stream numbering', () => {
  it('accepts consecutive ids and ignores messages without an id', () => {
    expect(numberingProblems(ids('4', undefined, '5', '6'))).toEqual([]);
    expect(numberingProblems(ids('8', '9'), 7)).toEqual([]);
  });

  it('names repeats, gaps, a wrong resumption point and ids that are not numbers', () => {
    expect(numberingProblems(ids('1', '2', '2', '3'))).toEqual(['id 2 came again after 2']);
    expect(numberingProblems(ids('1', '3'))).toEqual(['after id 1 came 3: 1 message(s) skipped']);
    expect(numberingProblems(ids('1'), 5)).toEqual(['id 1 came again after 5']);
    expect(numberingProblems(ids('a', '1'))).toEqual(['id "a" is not a number']);
  });
});
