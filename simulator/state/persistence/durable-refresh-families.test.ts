import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRefreshFamilyStore } from '../../auth-server/refresh-families.ts';
import { createClock } from '../../lib/clock.ts';
import { createRefreshFamilyService, MAX_REMEMBERED_PER_FAMILY } from '../../services/refresh-family-service.ts';
import { networkLike } from '../../test-support/network-like.ts';
import { testGrant } from '../../test-support/refresh-grant.ts';

import { durableRefreshFamilies } from './durable-refresh-families.ts';
import { memoryOnly, type Persistence } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';
import { openSqlitePersistence } from './sqlite-persistence.ts';

const grant = testGrant();

describe.each([
  ['memory', false],
  ['a repository answering later', true],
])('durable refresh families over %s', (_name, later) => {
  /** A service over the data dir `dir`, as a start of the simulator builds it. */
  const open = async (dir: string) => {
    const p = openSqlitePersistence(dir);
    const memory = createRefreshFamilyStore();
    const repository = durableRefreshFamilies(later ? networkLike(memory) : memory, p);
    const families = createRefreshFamilyService({ repository, clock: createClock(() => 1000), ttlSeconds: 3600 });
    // A first call waits for the load, as the first request after a start does.
    await repository.familyCount();
    return { p, families, repository, memory };
  };

  it('a restart keeps every grant: the latest token rotates, a spent one revokes, a revoked family stays revoked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-families-unit-'));
    let s = await open(dir);
    const kept = await s.families.start(grant);
    const first = await s.families.rotate(kept.refreshToken, 'app');
    if (first.kind !== 'rotated') throw new Error(first.kind);
    const revoked = await s.families.start(grant);
    await s.families.revokeByToken(revoked.refreshToken, 'app');
    const spentElsewhere = await s.families.start(grant);
    const next = await s.families.rotate(spentElsewhere.refreshToken, 'app');
    s.p.close();

    s = await open(dir);
    expect(await s.repository.familyCount()).toBe(3);
    expect((await s.families.rotate(first.refreshToken, 'app')).kind).toBe('rotated');
    expect((await s.families.rotate(revoked.refreshToken, 'app')).kind).toBe('revoked');
    // The token spent before the restart is a reuse after it: the family (and its successor) is revoked.
    expect((await s.families.rotate(spentElsewhere.refreshToken, 'app')).kind).toBe('reused');
    if (next.kind !== 'rotated') throw new Error(next.kind);
    expect((await s.families.rotate(next.refreshToken, 'app')).kind).toBe('revoked');
    s.p.close();

    // ...and what the second start changed is on disk too.
    s = await open(dir);
    expect((await s.families.rotate(next.refreshToken, 'app')).kind).toBe('revoked');
    expect((await s.families.rotate(kept.refreshToken, 'app')).kind).toBe('reused');
    s.p.close();
  });

  it('keeps a long grant within its latest tokens, and forgets on disk what the repository forgot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-families-unit-'));
    let s = await open(dir);
    let token = (await s.families.start(grant)).refreshToken;
    for (let i = 0; i < MAX_REMEMBERED_PER_FAMILY + 5; i++) {
      const r = await s.families.rotate(token, 'app');
      if (r.kind !== 'rotated') throw new Error(r.kind);
      token = r.refreshToken;
    }
    const records = [...s.p.entries<{ tokens: unknown[] }>('refresh-families')];
    expect(records.map(([, r]) => r.tokens.length)).toEqual([MAX_REMEMBERED_PER_FAMILY]);
    await s.families.start(grant);
    await s.repository.trimTo(1);
    expect([...s.p.entries('refresh-families')]).toHaveLength(1);
    s.p.close();
    s = await open(dir);
    expect(await s.repository.familyCount()).toBe(1);
    expect((await s.families.rotate(token, 'app')).kind).toBe('unknown');
    await s.repository.clear();
    expect([...s.p.entries('refresh-families')]).toHaveLength(0);
    s.p.close();
  });
});

describe('durable refresh families: start', () => {
  it('is the repository itself without a data dir (the memory path pays nothing)', () => {
    const repo = createRefreshFamilyStore();
    expect(durableRefreshFamilies(repo, memoryOnly)).toBe(repo);
  });

  it('refuses a damaged record, naming where it was read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-families-unit-'));
    const p: Persistence = openSqlitePersistence(dir);
    p.put('refresh-families', 'grant_x', { grant: { clientId: 'app' }, revoked: 'no', tokens: [] });
    expect(() => durableRefreshFamilies(createRefreshFamilyStore(), p)).toThrow(PersistenceError);
    // A grant without its person is as damaged as one without its client.
    const { personId: _gone, ...withoutPerson } = testGrant();
    p.put('refresh-families', 'grant_x', { grant: withoutPerson, revoked: false, tokens: [] });
    expect(() => durableRefreshFamilies(createRefreshFamilyStore(), p)).toThrow(/not a refresh-token family/);
    p.close();
  });
});
