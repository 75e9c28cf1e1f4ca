import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDueQueue } from './due-queue.ts';

describe('due queue', () => {
  it('pops what fell due, earliest first, ties in insertion order', () => {
    const q = createDueQueue<string>();
    q.push(20, 'c');
    q.push(10, 'a');
    q.push(10, 'b');
    q.push(30, 'd');
    expect(q.peek()).toBe(10);
    expect(q.popDue(5)).toEqual([]);
    expect(q.popDue(20)).toEqual(['a', 'b', 'c']);
    expect(q.size()).toBe(1);
    q.clear();
    expect(q.peek()).toBeUndefined();
  });

  it('matches a stable sort of everything due (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 200 }),
        fc.integer({ min: 0, max: 60 }),
        (dues, now) => {
          const q = createDueQueue<number>();
          for (const [i, d] of dues.entries()) q.push(d, i);
          const expected = dues
            .map((d, i) => ({ d, i }))
            .filter((x) => x.d <= now)
            .sort((a, b) => a.d - b.d)
            .map((x) => x.i);
          expect(q.popDue(now)).toEqual(expected);
          expect(q.size()).toBe(dues.length - expected.length);
        },
      ),
    );
  });
});
