import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClock } from '../../lib/clock.ts';
import { durableClock } from './durable-clock.ts';
import { openSqlitePersistence } from './sqlite-persistence.ts';

describe('durable sandbox clock', () => {
  it('takes the offset up again, and never starts before the saved sandbox time when real time went back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-clock-unit-'));
    let real = 1_000_000;
    let p = openSqlitePersistence(dir);
    const first = durableClock(
      createClock(() => real),
      p,
    );
    first.advance(60_000);
    expect(first.now()).toBe(1_060_000);
    p.close();
    real = 500_000; // the machine's clock was set back
    p = openSqlitePersistence(dir);
    const second = durableClock(
      createClock(() => real),
      p,
    );
    expect(second.now()).toBe(1_060_000);
    second.reset();
    p.close();
    p = openSqlitePersistence(dir);
    expect(
      durableClock(
        createClock(() => real),
        p,
      ).offset(),
    ).toBe(0);
    p.close();
  });
});
