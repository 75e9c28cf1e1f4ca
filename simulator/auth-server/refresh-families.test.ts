import { describe, expect, it } from 'vitest';
import { testGrant } from '../test-support/refresh-grant.ts';

import { createRefreshFamilyStore } from './refresh-families.ts';

const grant = testGrant();

describe('refresh family repository (memory)', () => {
  it('keeps families and their latest token hashes, knowing no clock or rule', () => {
    const repo = createRefreshFamilyStore();
    expect(repo.insertFamily('f', grant)).toBe(true);
    expect(repo.insertFamily('f', { ...grant, clientId: 'other' })).toBe(false);
    for (let i = 0; i < 4; i++) repo.addToken('f', `h${i}`, 100 + i, 3);
    repo.addToken('unknown', 'hx', 1, 3);
    expect(repo.getFamily('f')).toMatchObject({ grant, revoked: false, expiresAt: 103, hashes: ['h1', 'h2', 'h3'] });
    expect(repo.findToken('h0')).toBeUndefined();
    expect(repo.findToken('hx')).toBeUndefined();
    repo.markUsed('h1');
    expect(repo.findToken('h1')).toEqual({ family: 'f', expiresAt: 101, used: true });
    expect(repo.revoke('f')).toBe(true);
    expect(repo.revoke('nope')).toBe(false);
    expect(repo.getFamily('f')).toMatchObject({ revoked: true });
  });

  it('forgets families by expiry horizon and the oldest first, with their tokens', () => {
    const repo = createRefreshFamilyStore();
    for (let i = 0; i < 4; i++) {
      repo.insertFamily(`f${i}`, grant);
      repo.addToken(`f${i}`, `h${i}`, i * 10, 64);
    }
    repo.forgetExpiredBefore(10);
    expect(repo.familyCount()).toBe(3);
    expect(repo.findToken('h0')).toBeUndefined();
    repo.trimTo(1);
    expect(repo.getFamily('f3')).toBeDefined();
    expect(repo.findToken('h2')).toBeUndefined();
    repo.clear();
    expect(repo.familyCount()).toBe(0);
  });
});
