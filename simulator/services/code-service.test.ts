import { describe, expect, it } from 'vitest';
import { createCodeStore } from '../auth-server/code-store.ts';
import { createClock } from '../lib/clock.ts';
import { networkLike } from '../test-support/network-like.ts';
import { createCodeService, MAX_CODES } from './code-service.ts';
import { hashToken } from './secret-hash.ts';

const grant = {
  clientId: 'app',
  redirectUri: 'http://127.0.0.1:1/cb',
  redirectUriSent: true,
  personId: 'p',
  tenants: ['t'],
  scopes: ['catalog:read' as const],
};

describe.each([
  ['memory', false],
  ['a repository answering later', true],
])('authorization code service over %s', (_name, later) => {
  const setup = () => {
    let now = 0;
    const memory = createCodeStore();
    const codes = createCodeService({
      repository: later ? networkLike(memory) : memory,
      clock: createClock(() => now),
    });
    return { codes, memory, at: (ms: number) => (now = ms) };
  };

  it('issues single-use codes, kept by hash, that expire after 60 s on the sandbox clock', async () => {
    const { codes, memory, at } = setup();
    const code = await codes.issue(grant);
    expect(code).toMatch(/^ncs_ac_/);
    expect(memory.find(code)).toBeUndefined();
    expect(memory.find(hashToken(code))).toMatchObject({ clientId: 'app' });
    expect(await codes.find(code)).toMatchObject({ kind: 'fresh', code: { clientId: 'app', expiresAt: 60_000 } });
    await codes.redeem(code, 'grant_1');
    expect(await codes.find(code)).toMatchObject({ kind: 'redeemed', code: { grant: 'grant_1' } });
    const late = await codes.issue(grant);
    at(59_999);
    expect((await codes.find(late)).kind).toBe('fresh');
    at(60_000);
    expect((await codes.find(late)).kind).toBe('expired');
    expect((await codes.find('ncs_ac_guess')).kind).toBe('unknown');
  });

  it('keeps and redeems codes of another replica by hash', async () => {
    const { codes } = setup();
    const record = { ...grant, expiresAt: 60_000 };
    await codes.put(hashToken('ncs_ac_elsewhere'), record);
    expect(await codes.find('ncs_ac_elsewhere')).toMatchObject({ kind: 'fresh' });
    await codes.redeemHash(hashToken('ncs_ac_elsewhere'), 'grant_2');
    expect(await codes.find('ncs_ac_elsewhere')).toMatchObject({ kind: 'redeemed', code: { grant: 'grant_2' } });
    expect(record).not.toHaveProperty('used');
    await codes.clear();
    expect((await codes.find('ncs_ac_elsewhere')).kind).toBe('unknown');
  });
});

describe('authorization code service bounds', () => {
  it('stays bounded under a flood of unredeemed codes: the oldest go', () => {
    let now = 0;
    const memory = createCodeStore();
    const codes = createCodeService({ repository: memory, clock: createClock(() => now) });
    const first = codes.issue(grant) as string;
    for (let i = 0; i < MAX_CODES + 50; i++) codes.issue(grant);
    expect(memory.size()).toBeLessThanOrEqual(MAX_CODES);
    expect(codes.find(first)).toEqual({ kind: 'unknown' });
    now += 1;
    expect(codes.find(codes.issue(grant) as string)).toMatchObject({ kind: 'fresh' });
  });

  it('forgets used codes ten minutes past their expiry, when full', () => {
    let now = 0;
    const memory = createCodeStore();
    const codes = createCodeService({ repository: memory, clock: createClock(() => now) });
    // The oldest is still valid (another replica's, by hash): the sweep takes the expired before the oldest.
    codes.put(hashToken('ncs_ac_oldest'), { ...grant, expiresAt: 10 * 3600_000 });
    const used = codes.issue(grant) as string;
    codes.redeem(used);
    now = 60_000 + 10 * 60_000 + 1;
    for (let i = 0; i < MAX_CODES - 1; i++) codes.issue(grant);
    expect(codes.find(used)).toEqual({ kind: 'unknown' });
    expect(codes.find('ncs_ac_oldest')).toMatchObject({ kind: 'fresh' });
  });
});
