import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, hashAuditEntry, type AuditEntry } from '../../contract/audit-hash.ts';
import { createAuditStore } from '../audit-store.ts';
import { createFeedStore } from '../feed-store.ts';
import { createSnapshotPersistence } from '../redis/snapshot-persistence.ts';
import { durableAudit } from './durable-audit.ts';
import { durableFeeds } from './durable-feeds.ts';
import { memoryOnly } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';
import { networkLike } from '../../test-support/network-like.ts';

const message = (id: number) => Object.freeze({ id, event: 'tick', data: { id }, at: '2026-07-01T00:00:00.000Z' });
function chain(n: number): AuditEntry[] {
  const out: AuditEntry[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const content = {
      seq,
      requestId: `req_${seq}`,
      actor: 'harbour-backend',
      action: 'connection.created',
      target: `connection:con_${seq}`,
      at: '2026-07-01T00:00:00.000Z',
      tenant: 't',
      prevHash: out.at(-1)?.hash ?? GENESIS_HASH,
    };
    out.push(Object.freeze({ ...content, hash: hashAuditEntry(content) }));
  }
  return out;
}

describe('durable feeds and audit chains (write-through decorators)', () => {
  it('without durable persistence the repository itself comes back', () => {
    const feeds = createFeedStore();
    const audit = createAuditStore();
    expect(durableFeeds(feeds, memoryOnly, 10)).toBe(feeds);
    expect(durableAudit(audit, memoryOnly, 10)).toBe(audit);
  });

  it('writes kept messages through in the same step and loads the retained window at start', () => {
    const p = createSnapshotPersistence();
    const feeds = durableFeeds(createFeedStore(), p, 3);
    for (let id = 1; id <= 5; id++) expect(feeds.append('public', message(id), 3)).toBe(true);
    // Refused (not the next id): nothing is written.
    expect(feeds.append('public', message(9), 3)).toBe(false);
    expect([...p.logEntries('feed:public')].map((m) => (m as { id: number }).id)).toEqual([1, 2, 3, 4, 5]);
    const restarted = createSnapshotPersistence(p.dump());
    const again = durableFeeds(createFeedStore(), restarted, 3);
    expect(again.lastId('public')).toBe(5);
    expect(again.since('public', 0).map((m) => m.id)).toEqual([3, 4, 5]);
    again.clear();
    expect([...restarted.logNames('feed:')]).toEqual([]);
    expect(again.lastId('public')).toBe(5);
  });

  it('writes audit entries through, loads each chain verified, and refuses to start on an edited one', () => {
    const p = createSnapshotPersistence();
    const audit = durableAudit(createAuditStore(), p, 100);
    for (const e of chain(4)) expect(audit.append('t', e, 100)).toBe(true);
    expect(audit.append('t', chain(2)[1] as AuditEntry, 100)).toBe(false);
    const loaded = durableAudit(createAuditStore(), createSnapshotPersistence(p.dump()), 100);
    expect(loaded.newest('t')?.seq).toBe(4);
    const edited = createSnapshotPersistence(p.dump());
    const third = chain(4)[2] as AuditEntry;
    edited.append('audit:t', 3, { ...third, actor: 'someone-else' });
    expect(() => durableAudit(createAuditStore(), edited, 100)).toThrow(PersistenceError);
  });

  it('over a repository answering later, writes wait for the load and a failed load fails them', async () => {
    const p = createSnapshotPersistence();
    durableFeeds(createFeedStore(), p, 3).append('public', message(1), 3);
    durableAudit(createAuditStore(), p, 100).append('t', chain(1)[0] as AuditEntry, 100);
    const down = () => Promise.reject(new Error('repository down'));
    const feeds = durableFeeds(
      { ...networkLike(createFeedStore()), load: down },
      createSnapshotPersistence(p.dump()),
      3,
    );
    const audit = durableAudit(
      { ...networkLike(createAuditStore()), load: down },
      createSnapshotPersistence(p.dump()),
      100,
    );
    await expect(feeds.append('public', message(2), 3)).rejects.toThrow('repository down');
    await expect(audit.append('t', chain(2)[1] as AuditEntry, 100)).rejects.toThrow('repository down');
    // Loaded: the next message follows the stored one, written after the load.
    const loaded = durableFeeds(networkLike(createFeedStore()), createSnapshotPersistence(p.dump()), 3);
    expect(await loaded.append('public', message(2), 3)).toBe(true);
    expect(await loaded.lastId('public')).toBe(2);
  });
});
