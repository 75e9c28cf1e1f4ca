import { describe, expect, it } from 'vitest';
import { all, andThen, type MaybePromise } from './maybe-promise.ts';

describe('andThen', () => {
  it('continues on a value at once, in the same turn, with no promise in between', () => {
    const seen: string[] = [];
    const out = andThen(2 as MaybePromise<number>, (n) => {
      seen.push('next');
      return n * 21;
    });
    seen.push('after');
    expect(out).toBe(42);
    expect(out).not.toBeInstanceOf(Promise);
    expect(seen).toEqual(['next', 'after']);
  });

  it('continues on a promise once it settles, and flattens a promise that next answers', async () => {
    const out = andThen(Promise.resolve(2) as MaybePromise<number>, (n) => Promise.resolve(n * 21));
    expect(out).toBeInstanceOf(Promise);
    await expect(out).resolves.toBe(42);
  });

  it('throws a throw of next on the value path and rejects on the promise path', async () => {
    const boom = () => {
      throw new RangeError('boom');
    };
    expect(() => andThen(1, boom)).toThrow(RangeError);
    await expect(andThen(Promise.resolve(1), boom)).rejects.toThrow(RangeError);
  });

  it('passes a rejection on without calling next', async () => {
    let called = false;
    const out = andThen(Promise.reject(new Error('down')) as MaybePromise<number>, () => {
      called = true;
      return 1;
    });
    await expect(out).rejects.toThrow('down');
    expect(called).toBe(false);
  });
});

describe('all', () => {
  it('answers the values themselves when none is a promise, and one promise in order otherwise', async () => {
    const values = all([1, 'two'] as const);
    expect(values).not.toBeInstanceOf(Promise);
    expect(values).toEqual([1, 'two']);
    const mixed = all([1, Promise.resolve('two'), new Promise<number>((r) => setImmediate(() => r(3)))] as const);
    expect(mixed).toBeInstanceOf(Promise);
    await expect(mixed).resolves.toEqual([1, 'two', 3]);
    await expect(all([1, Promise.reject(new Error('down'))])).rejects.toThrow('down');
  });
});
