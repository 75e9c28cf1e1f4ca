import { describe, expect, it, vi } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createTokenStore } from '../state/token-store.ts';
import { networkLike } from '../test-support/network-like.ts';
import { hashToken } from './secret-hash.ts';
import { createTokenService, type TokenGrant } from './token-service.ts';

const grant = (clientId: string, family?: string): TokenGrant => ({
  clientId,
  tenants: ['t'],
  scopes: ['catalog:read'],
  environment: 'sandbox',
  ...(family ? { family } : {}),
});

describe.each([
  ['memory', false],
  ['a repository answering later', true],
])('token service over %s', (_name, later) => {
  const setup = (opts: { maxPerClient?: number } = {}) => {
    let now = 1_000_000;
    const memory = createTokenStore();
    const tokens = createTokenService({
      repository: later ? networkLike(memory) : memory,
      clock: createClock(() => now),
      defaultTtlSeconds: 900,
      ...opts,
    });
    return { tokens, memory, tick: (ms: number) => (now += ms) };
  };

  it('issues unguessable tokens that it keeps only as hashes, for their lifetime on the sandbox clock', async () => {
    const { tokens, memory, tick } = setup();
    const a = await tokens.issue(grant('c'));
    const b = await tokens.issue({ ...grant('c'), ttlSeconds: 60 });
    expect(a.token).not.toBe(b.token);
    expect(a.token).toMatch(/^ncs_at_/);
    expect(a.record.expiresAt).toBe(1_000_000 + 900_000);
    expect(b.record.expiresAt).toBe(1_000_000 + 60_000);
    expect(memory.find(a.token)).toBeUndefined();
    expect(memory.find(hashToken(a.token))).toBe(a.record);
    expect(await tokens.check(a.token)).toEqual({ kind: 'live', record: a.record });
    tick(60_000);
    expect(await tokens.check(b.token)).toEqual({ kind: 'expired', record: b.record });
    expect((await tokens.check(a.token)).kind).toBe('live');
    expect(await tokens.check('ncs_at_guess')).toEqual({ kind: 'unknown' });
    expect(await tokens.revoke(a.token)).toBe(true);
    expect(await tokens.revoke(a.token)).toBe(false);
    expect(await tokens.lookup(a.token)).toBeUndefined();
  });

  it('revokes every token of one grant, or of one client, and nothing else', async () => {
    const { tokens } = setup();
    const a = await tokens.issue(grant('c', 'f1'));
    const b = await tokens.issue(grant('c', 'f1'));
    const c = await tokens.issue(grant('c', 'f2'));
    const d = await tokens.issue(grant('d'));
    expect(await tokens.revokeFamily('f1')).toBe(2);
    expect(await tokens.lookup(a.token)).toBeUndefined();
    expect(await tokens.lookup(b.token)).toBeUndefined();
    expect((await tokens.lookup(c.token))?.family).toBe('f2');
    await tokens.revokeClient('c');
    expect(await tokens.lookup(c.token)).toBeUndefined();
    expect(await tokens.lookup(d.token)).toBeDefined();
  });

  it('keeps at most maxPerClient tokens per client: the oldest go first, other clients keep theirs', async () => {
    const { tokens } = setup({ maxPerClient: 3 });
    const c = [];
    for (let i = 0; i < 5; i++) c.push(await tokens.issue(grant('c')));
    const d = [await tokens.issue(grant('d')), await tokens.issue(grant('d'))];
    const alive = async (list: { token: string }[]) =>
      Promise.all(list.map(async (t) => (await tokens.lookup(t.token)) !== undefined));
    expect(await alive(c)).toEqual([false, false, true, true, true]);
    expect(await alive(d)).toEqual([true, true]);
  });

  it('ends the watches of a token revoked, dropped past the cap, revoked with its grant or client, or cleared', async () => {
    const { tokens } = setup({ maxPerClient: 2 });
    const ended: string[] = [];
    const watched = async (name: string, g: TokenGrant) => {
      const t = await tokens.issue(g);
      tokens.watch(t.record, () => ended.push(name));
      return t;
    };
    const revoked = await watched('revoked', grant('a'));
    await watched('capped', grant('b'));
    await watched('family', grant('c', 'f'));
    await watched('client', grant('d'));
    await watched('cleared', grant('e'));
    const unwatched = await watched('unwatched', grant('e'));
    const stop = tokens.watch(unwatched.record, () => ended.push('twice'));
    stop();
    await tokens.revoke(revoked.token);
    await tokens.issue(grant('b'));
    await tokens.issue(grant('b'));
    await tokens.revokeFamily('f');
    await tokens.revokeClient('d');
    expect(ended).toEqual(['revoked', 'capped', 'family', 'client']);
    await tokens.clear();
    expect(ended.slice(4).sort()).toEqual(['cleared', 'unwatched']);
  });

  it('keeps a record minted on another replica under its hash, once', async () => {
    const { tokens } = setup();
    const record = { ...grant('c'), issuedAt: 1, expiresAt: 2_000_000 };
    await tokens.put(hashToken('ncs_at_elsewhere'), record);
    await tokens.put(hashToken('ncs_at_elsewhere'), { ...record, clientId: 'other' });
    expect(await tokens.lookup('ncs_at_elsewhere')).toEqual(record);
    expect(await tokens.revokeHash(hashToken('ncs_at_elsewhere'))).toBe(true);
    expect(await tokens.lookup('ncs_at_elsewhere')).toBeUndefined();
  });
});

describe('token service bounds (memory)', () => {
  it('answers at once from memory', () => {
    const tokens = createTokenService({ repository: createTokenStore(), clock: createClock(() => 0) });
    const issued = tokens.issue(grant('c'));
    if (issued instanceof Promise) throw new Error('a memory repository answers at once');
    expect(tokens.lookup(issued.token)).toBe(issued.record);
  });

  it('does not walk every token on every issue once there are many (the sweep is amortised)', () => {
    const tokens = createTokenService({ repository: createTokenStore(), clock: createClock(() => 0) });
    // 6 clients x 10,000 = 60,000 live tokens: past the sweep floor, none expired.
    for (let i = 0; i < 50_001; i++) tokens.issue(grant(`c${i % 6}`));
    const walk = vi.spyOn(Map.prototype, 'entries');
    const iterate = vi.spyOn(Map.prototype, Symbol.iterator);
    try {
      for (let i = 0; i < 5_000; i++) tokens.issue(grant(`c${i % 6}`));
      // Before: a full sweep (a walk over 50,000+ tokens) on each of the 5,000 issues.
      expect(walk.mock.calls.length + iterate.mock.calls.length).toBeLessThan(5);
    } finally {
      walk.mockRestore();
      iterate.mockRestore();
    }
  });

  it('past the floor, sweeps the tokens expired over a day ago and keeps the recently expired answerable', async () => {
    let now = 0;
    const tokens = createTokenService({
      repository: networkLike(createTokenStore()),
      clock: createClock(() => now),
      sweepFloor: 2,
    });
    const old = await tokens.issue({ ...grant('c'), ttlSeconds: 1 });
    now = 24 * 3600_000;
    const recent = await tokens.issue({ ...grant('c'), ttlSeconds: 1 });
    await tokens.issue(grant('c'));
    now += 2000;
    expect((await tokens.check(old.token)).kind).toBe('expired');
    await tokens.issue(grant('c'));
    expect((await tokens.check(old.token)).kind).toBe('unknown');
    expect((await tokens.check(recent.token)).kind).toBe('expired');
  });
});
