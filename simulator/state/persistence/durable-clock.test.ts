import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClock } from '../../lib/clock.ts';
import { createClockService } from '../../services/clock-service.ts';
import { createClockOffsetStore } from '../clock-offset-store.ts';
import { createSnapshotPersistence } from '../redis/snapshot-persistence.ts';
import { durableClockOffset } from './durable-clock.ts';
import { memoryOnly, type Persistence } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';
import { openSqlitePersistence } from './sqlite-persistence.ts';

const clockOver = (p: Persistence, real: () => number) =>
  createClockService({ clock: createClock(real), repository: durableClockOffset(createClockOffsetStore(), p) });

describe('durable sandbox clock offset', () => {
  it('answers the repository itself when nothing is durable', () => {
    const repository = createClockOffsetStore();
    expect(durableClockOffset(repository, memoryOnly)).toBe(repository);
  });

  it('takes the offset up again, and never starts before the saved sandbox time when real time went back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-clock-unit-'));
    try {
      let real = 1_000_000;
      let p = openSqlitePersistence(dir);
      const first = clockOver(p, () => real);
      first.advance(60_000);
      expect(first.now()).toBe(1_060_000);
      p.close();
      real = 500_000; // the machine's clock was set back
      p = openSqlitePersistence(dir);
      const second = clockOver(p, () => real);
      expect(second.now()).toBe(1_060_000);
      second.reset();
      p.close();
      p = openSqlitePersistence(dir);
      expect(clockOver(p, () => real).offset()).toBe(0);
      p.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the record shape of earlier data dirs: {offsetMs, sandboxNow} under clock/sandbox', () => {
    const p = createSnapshotPersistence();
    clockOver(p, () => 1_000).advance(5_000);
    expect([...p.entries('clock')]).toEqual([['sandbox', { offsetMs: 5_000, sandboxNow: 6_000 }]]);
  });

  it('refuses a stored clock that is not {offsetMs, sandboxNow}', () => {
    const p = createSnapshotPersistence({ records: [['clock', [['sandbox', { offsetMs: -1 }]]]], logs: [] });
    expect(() => durableClockOffset(createClockOffsetStore(), p)).toThrow(PersistenceError);
  });
});
