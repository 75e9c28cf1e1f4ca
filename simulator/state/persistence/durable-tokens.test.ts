import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AccessToken } from '../ports/tokens.ts';
import { createTokenStore } from '../token-store.ts';
import { durableTokens } from './durable-tokens.ts';
import { memoryOnly } from './persistence.ts';
import { openSqlitePersistence } from './sqlite-persistence.ts';

const rec = (clientId: string, family?: string): AccessToken => ({
  clientId,
  tenants: ['t'],
  scopes: ['catalog:read'],
  environment: 'sandbox',
  issuedAt: 1,
  expiresAt: 2,
  ...(family ? { family } : {}),
});

describe('durable token repository', () => {
  it('is the repository itself without a data dir (the memory path pays nothing)', () => {
    const repo = createTokenStore();
    expect(durableTokens(repo, memoryOnly)).toBe(repo);
  });

  it('writes every change through in the same step and loads the tokens namespace at start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-tokens-unit-'));
    let p = openSqlitePersistence(dir);
    const first = durableTokens(createTokenStore(), p);
    for (const [h, r] of [
      ['a', rec('c')],
      ['b', rec('c', 'f')],
      ['c', rec('d', 'f')],
      ['d', rec('d')],
      ['e', rec('e')],
    ] as const)
      first.insert(h, r);
    // Written at once: the record shape and namespace an existing data dir holds.
    expect(new Map(p.entries<AccessToken>('tokens')).get('a')).toEqual(rec('c'));
    first.remove('a');
    first.removeFamily('f');
    first.trimClient('d', 0);
    // A revocation by hash of a token this process no longer holds still reaches the disk.
    p.put('tokens', 'gone-elsewhere', rec('x'));
    first.remove('gone-elsewhere');
    p.close();
    p = openSqlitePersistence(dir);
    const second = createTokenStore();
    durableTokens(second, p);
    expect(second.size()).toBe(1);
    expect(second.find('e')).toEqual(rec('e'));
    p.close();
  });

  it('clears the namespace with the repository, and refuses a damaged record naming the data dir', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-tokens-unit-'));
    let p = openSqlitePersistence(dir);
    const repo = durableTokens(createTokenStore(), p);
    repo.insert('a', rec('c'));
    repo.clear();
    expect([...p.entries('tokens')]).toEqual([]);
    p.put('tokens', 'bad', { clientId: 42 });
    p.close();
    p = openSqlitePersistence(dir);
    expect(() => durableTokens(createTokenStore(), p)).toThrow(/stored access token is not a token record/);
    p.close();
  });
});
