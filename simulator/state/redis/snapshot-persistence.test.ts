import { describe, expect, it } from 'vitest';
import { createSnapshotPersistence } from './snapshot-persistence.ts';

describe('createSnapshotPersistence', () => {
  it('keeps records in insertion order (an update keeps its place), logs by seq, and reads its dump back alike', () => {
    const p = createSnapshotPersistence();
    p.put('connections', 'c1', { id: 'c1', state: 'pending' });
    p.put('connections', 'c2', { id: 'c2' });
    p.put('connections', 'c1', { id: 'c1', state: 'active' });
    p.delete('connections', 'c2');
    p.put('connections', 'c3', { id: 'c3' });
    for (const seq of [3, 1, 2, 4]) p.append('feed:t1', seq, { id: seq });
    p.append('audit:t1', 1, { seq: 1 });
    p.trimLog('feed:t1', 2);
    expect([...p.entries('connections')]).toEqual([
      ['c1', { id: 'c1', state: 'active' }],
      ['c3', { id: 'c3' }],
    ]);
    expect([...p.logEntries('feed:t1')]).toEqual([{ id: 2 }, { id: 3 }, { id: 4 }]);
    expect([...p.logEntries('feed:t1', 3)]).toEqual([{ id: 3 }, { id: 4 }]);
    expect(p.logNames('feed:')).toEqual(['feed:t1']);

    const copy = createSnapshotPersistence(JSON.parse(JSON.stringify(p.dump())));
    expect(copy.durable).toBe(true);
    expect([...copy.entries('connections')]).toEqual([...p.entries('connections')]);
    expect([...copy.logEntries('feed:t1')]).toEqual([...p.logEntries('feed:t1')]);
    copy.deleteLogs('feed:');
    copy.deleteNamespace('connections');
    expect(copy.logNames('')).toEqual(['audit:t1']);
    expect([...copy.entries('connections')]).toEqual([]);
    expect(copy.transaction(() => 7)).toBe(7);
  });
});
