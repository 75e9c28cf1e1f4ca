import { describe, expect, it } from 'vitest';
import { pool } from './pool.ts';

describe('pool', () => {
  it('runs each item once, at most `limit` at a time, and keeps the input order', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    const out = await pool([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      seen.push(n);
      // Later items finish first: the result order must still be the input order.
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers an empty list at once, and a limit above the count runs everything together', async () => {
    expect(await pool([], 4, async () => 1)).toEqual([]);
    let running = 0;
    let most = 0;
    await pool([1, 2, 3], 8, async () => {
      running++;
      most = Math.max(most, running);
      await Promise.resolve();
      running--;
    });
    expect(most).toBe(3);
  });
});
