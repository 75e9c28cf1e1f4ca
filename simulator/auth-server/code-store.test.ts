import { describe, expect, it } from 'vitest';
import { createCodeStore } from './code-store.ts';

const code = (expiresAt: number) => ({
  clientId: 'app',
  redirectUri: 'http://127.0.0.1:1/cb',
  redirectUriSent: true,
  personId: 'p',
  tenants: ['t'],
  scopes: ['catalog:read' as const],
  expiresAt,
});

describe('authorization code repository (memory)', () => {
  it('keeps codes by hash, marks them used with their grant, and knows no clock', () => {
    const repo = createCodeStore();
    expect(repo.insert('h1', code(10))).toBe(true);
    expect(repo.insert('h1', code(99))).toBe(false);
    repo.markUsed('h1', 'grant_1');
    repo.markUsed('unknown');
    expect(repo.find('h1')).toMatchObject({ expiresAt: 10, used: true, grant: 'grant_1' });
  });

  it('removes by expiry horizon and trims the oldest first', () => {
    const repo = createCodeStore();
    for (let i = 0; i < 6; i++) repo.insert(`h${i}`, code(i * 10));
    repo.removeExpiredBefore(20);
    expect(repo.size()).toBe(4);
    repo.trimTo(2);
    expect([repo.find('h3'), repo.find('h4'), repo.find('h5')].map((c) => c !== undefined)).toEqual([
      false,
      true,
      true,
    ]);
    repo.clear();
    expect(repo.size()).toBe(0);
  });
});
