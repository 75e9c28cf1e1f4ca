import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyString } from '../test-support/any-string.ts';
import { flatJoin, newId, withSeededIds } from './ids.ts';

describe('flatJoin', () => {
  it('is the template concatenation of its parts, for any strings', () => {
    fc.assert(
      fc.property(anyString(), fc.string(), anyString(), (a, sep, b) => {
        expect(flatJoin(a, sep, b)).toBe(`${a}${sep}${b}`);
      }),
    );
  });
});

describe('newId', () => {
  it('draws fresh ids with the prefix and the size asked for', () => {
    const a = newId('con');
    const b = newId('con');
    expect(a).toMatch(/^con_[A-Za-z0-9_-]{16}$/);
    expect(a).not.toBe(b);
    expect(newId('ncs_at', 32)).toMatch(/^ncs_at_[A-Za-z0-9_-]{43}$/);
  });

  it('derives the same ids from the same seed (every replica applying one operation), others from another', () => {
    const ids = (seed: string) => withSeededIds(seed, () => [newId('con'), newId('evt'), newId('dlv', 32)]);
    const one = ids('seed-1');
    expect(ids('seed-1')).toEqual(one);
    expect(ids('seed-2')).not.toEqual(one);
    expect(new Set(one).size).toBe(3);
    expect(one[2]).toMatch(/^dlv_[A-Za-z0-9_-]{43}$/);
    // Outside the seeded call ids are random again, and an exception ends the seeding too.
    expect(() =>
      withSeededIds('x', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(newId('con')).not.toBe(withSeededIds('x', () => newId('con')));
  });
});
