import { describe, expect, it } from 'vitest';
import { createRefreshFamilyStore } from '../auth-server/refresh-families.ts';
import { createClock } from '../lib/clock.ts';
import { networkLike } from '../test-support/network-like.ts';
import { testGrant } from '../test-support/refresh-grant.ts';

import { createRefreshFamilyService, MAX_FAMILIES, MAX_REMEMBERED_PER_FAMILY } from './refresh-family-service.ts';
import { hashToken } from './secret-hash.ts';

const grant = testGrant();

describe.each([
  ['memory', false],
  ['a repository answering later', true],
])('refresh family service over %s', (_name, later) => {
  const setup = (ttlSeconds = 3600) => {
    let now = 0;
    const memory = createRefreshFamilyStore();
    const revokedAccess: string[] = [];
    const families = createRefreshFamilyService({
      repository: later ? networkLike(memory) : memory,
      clock: createClock(() => now),
      ttlSeconds,
      accessTokens: { revokeFamily: (f) => revokedAccess.push(f) },
    });
    return { families, memory, revokedAccess, at: (ms: number) => (now = ms) };
  };
  const rotated = async (r: unknown) => {
    const step = await r;
    if ((step as { kind: string }).kind !== 'rotated') throw new Error(`not rotated: ${JSON.stringify(step)}`);
    return (step as { refreshToken: string }).refreshToken;
  };

  it('rotates: each token is valid once, kept by hash, and hands over to the next', async () => {
    const { families, memory } = setup();
    const { family, refreshToken: r1 } = await families.start(grant);
    expect(family).toMatch(/^grant_/);
    expect(memory.findToken(r1)).toBeUndefined();
    expect(memory.findToken(hashToken(r1))).toMatchObject({ family, used: false });
    const step = await families.rotate(r1, 'app');
    expect(step).toMatchObject({ kind: 'rotated', family, grant });
    const r2 = await rotated(step);
    expect(r2).not.toBe(r1);
    expect((await families.rotate(r2, 'app')).kind).toBe('rotated');
  });

  it('a spent token coming back revokes the family, its newest token and its access tokens', async () => {
    const { families, revokedAccess } = setup();
    const { family, refreshToken: r1 } = await families.start(grant);
    const r2 = await rotated(families.rotate(r1, 'app'));
    expect(revokedAccess).toEqual([]);
    expect(await families.rotate(r1, 'app')).toEqual({ kind: 'reused', family });
    expect(revokedAccess).toEqual([family]);
    expect((await families.rotate(r2, 'app')).kind).toBe('revoked');
  });

  it('is bound to its client, expires on the clock, and a failed check spends nothing', async () => {
    const { families, at } = setup(60);
    const { refreshToken } = await families.start(grant);
    expect((await families.rotate(refreshToken, 'intruder')).kind).toBe('other-client');
    await expect(
      (async () =>
        families.rotate(refreshToken, 'app', () => {
          throw new Error('scope refused');
        }))(),
    ).rejects.toThrow('scope refused');
    at(59_999);
    const next = await rotated(families.rotate(refreshToken, 'app'));
    at(59_999 + 60_000);
    expect((await families.rotate(next, 'app')).kind).toBe('expired');
    expect((await families.rotate('ncs_rt_guess', 'app')).kind).toBe('unknown');
  });

  it('revokes by token only for the client that holds it, with the access tokens', async () => {
    const { families, revokedAccess } = setup();
    const { family, refreshToken } = await families.start(grant);
    expect(await families.revokeByToken(refreshToken, 'other')).toBeUndefined();
    expect(revokedAccess).toEqual([]);
    expect(await families.revokeByToken(refreshToken, 'app')).toBe(family);
    expect(revokedAccess).toEqual([family]);
    expect((await families.rotate(refreshToken, 'app')).kind).toBe('revoked');
    await families.revokeFamily(family, false);
    expect(revokedAccess).toEqual([family]);
  });

  it("follows another replica's families and rotations by hash", async () => {
    const { families } = setup();
    await families.adopt('grant_x', grant, hashToken('ncs_rt_a'));
    await families.adopt('grant_x', { ...grant, clientId: 'other' }, hashToken('ncs_rt_z'));
    await families.applyRotation(hashToken('ncs_rt_a'), 'grant_x', hashToken('ncs_rt_b'));
    expect(await families.rotate('ncs_rt_a', 'app')).toEqual({ kind: 'reused', family: 'grant_x' });
    expect((await families.rotate('ncs_rt_b', 'app')).kind).toBe('revoked');
    expect((await families.rotate('ncs_rt_z', 'other')).kind).toBe('unknown');
  });

  it('remembers only the latest tokens of a long-lived family', async () => {
    const { families } = setup();
    let { refreshToken: token } = await families.start(grant);
    const first = token;
    for (let i = 0; i < MAX_REMEMBERED_PER_FAMILY; i++) token = await rotated(families.rotate(token, 'app'));
    expect((await families.rotate(first, 'app')).kind).toBe('unknown');
    expect((await families.rotate(token, 'app')).kind).toBe('rotated');
  });
});

describe('refresh family service bounds', () => {
  it('keeps at most MAX_FAMILIES families: the oldest are forgotten first', () => {
    const memory = createRefreshFamilyStore();
    const families = createRefreshFamilyService({ repository: memory, clock: createClock(() => 0) });
    const first = families.start(grant) as { refreshToken: string };
    for (let i = 0; i < MAX_FAMILIES; i++) families.start(grant);
    expect(memory.familyCount()).toBeLessThanOrEqual(MAX_FAMILIES);
    expect(families.rotate(first.refreshToken, 'app')).toEqual({ kind: 'unknown' });
  });
});
