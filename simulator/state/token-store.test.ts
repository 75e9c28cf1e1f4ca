import { describe, expect, it } from 'vitest';
import type { AccessToken } from './ports/tokens.ts';
import { createTokenStore } from './token-store.ts';

const rec = (clientId: string, expiresAt = 1000, family?: string): AccessToken => ({
  clientId,
  tenants: ['t'],
  scopes: ['catalog:read'],
  environment: 'sandbox',
  issuedAt: 0,
  expiresAt,
  ...(family ? { family } : {}),
});

describe('token repository (memory)', () => {
  it('keeps records by hash; a known hash stays as it is', () => {
    const repo = createTokenStore();
    const first = rec('c');
    expect(repo.insert('h1', first)).toBe(true);
    expect(repo.insert('h1', rec('other'))).toBe(false);
    expect(repo.find('h1')).toBe(first);
    expect(repo.remove('h1')).toEqual({ hash: 'h1', record: first });
    expect(repo.remove('h1')).toBeUndefined();
    expect(repo.size()).toBe(0);
  });

  it('removes by client, family, age within a client, and expiry horizon, answering what went', () => {
    const repo = createTokenStore();
    for (let i = 0; i < 5; i++) repo.insert(`c${i}`, rec('c', 100 * i));
    repo.insert('d0', rec('d', 1000, 'f1'));
    repo.insert('d1', rec('d', 1000, 'f1'));
    repo.insert('d2', rec('d', 1000, 'f2'));
    expect((repo.trimClient('c', 3) as { hash: string }[]).map((t) => t.hash)).toEqual(['c0', 'c1']);
    expect(repo.trimClient('c', 3)).toEqual([]);
    expect((repo.removeFamily('f1') as { hash: string }[]).map((t) => t.hash)).toEqual(['d0', 'd1']);
    expect((repo.removeExpiredBefore(350) as { hash: string }[]).map((t) => t.hash)).toEqual(['c2', 'c3']);
    expect((repo.removeClient('c') as { hash: string }[]).map((t) => t.hash)).toEqual(['c4']);
    expect(repo.size()).toBe(1);
    repo.clear();
    expect(repo.find('d2')).toBeUndefined();
  });
});
