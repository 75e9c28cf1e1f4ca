import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createIdempotencyStore } from '../state/idempotency-store.ts';
import { networkLike } from '../test-support/network-like.ts';
import { createIdempotencyService, type IdempotencyOptions } from './idempotency-service.ts';

const outcome = { status: 200, ok: true as const, data: {} };

describe.each([
  ['the memory repository', false],
  ['a repository answering promises', true],
])('idempotency service over %s', (_name, async) => {
  const setup = (options: Partial<IdempotencyOptions> = {}) => {
    const clock = { now: 0 };
    const memory = createIdempotencyStore();
    const service = createIdempotencyService({
      repository: async ? networkLike(memory) : memory,
      clock: createClock(() => clock.now),
      options,
    });
    /** Begins and, when new, finishes with `o` (null: nothing kept); answers the kind begin answered. */
    const use = async (key: string, fp = 'fp', o: typeof outcome | null = outcome) => {
      const b = await service.begin('t', key, fp);
      if (b.kind === 'new') await b.finish(o ?? undefined);
      return b.kind;
    };
    return { service, memory, clock, use };
  };

  it('answers at once from memory, with a promise otherwise', () => {
    const { service } = setup();
    expect(service.begin('t', 'k', 'fp') instanceof Promise).toBe(async);
    expect(service.issue('t', 'connection.create') instanceof Promise).toBe(async);
  });

  it('replays the same content, refuses other content, and frees a key whose outcome is not kept', async () => {
    const { use } = setup();
    expect(await use('k1')).toBe('new');
    expect(await use('k1')).toBe('replay');
    expect(await use('k1', 'other')).toBe('conflict');
    expect(await use('k2', 'fp', null)).toBe('new');
    expect(await use('k2', 'other')).toBe('new');
  });

  it('makes a concurrent duplicate wait for the first, then replay it', async () => {
    const { service } = setup();
    const first = await service.begin('t', 'k', 'fp');
    expect(first.kind).toBe('new');
    const second = await service.begin('t', 'k', 'fp');
    expect(second.kind).toBe('wait');
    let woke = false;
    if (second.kind === 'wait') void second.settled.then(() => (woke = true));
    await Promise.resolve();
    expect(woke).toBe(false);
    if (first.kind === 'new') await first.finish(outcome);
    await new Promise((resolve) => setImmediate(resolve));
    expect(woke).toBe(true);
    expect((await service.begin('t', 'k', 'fp')).kind).toBe('replay');
  });

  it('expires keys on the sandbox clock, ttl after first use, and sweeps them', async () => {
    const { service, clock, use } = setup({ ttlMs: 1000 });
    await use('k1');
    expect(await use('k1')).toBe('replay');
    clock.now = 1000;
    expect(await use('k1', 'other')).toBe('new');
    clock.now = 5000;
    await service.begin('t', 'k2', 'fp');
    expect(await service.size()).toBe(1);
  });

  it('an issued key expires at the expiresAt it was issued with, however late its first use', async () => {
    const { service, clock, use } = setup({ ttlMs: 1000 });
    const { idempotencyKey, expiresAt } = await service.issue('t', 'connection.create');
    expect(expiresAt).toBe(1000);
    clock.now = 600;
    await use(idempotencyKey);
    clock.now = expiresAt - 1;
    expect(await use(idempotencyKey)).toBe('replay');
    clock.now = expiresAt;
    expect(await use(idempotencyKey)).toBe('new');
  });

  it('keeps at most maxRecords, dropping the oldest first', async () => {
    const { service, use } = setup({ maxRecords: 100 });
    for (let i = 0; i < 300; i++) await use(`key-${i}`);
    expect(await service.size()).toBe(100);
    expect(await use('key-299')).toBe('replay');
    expect(await use('key-0')).toBe('new');
  });

  it('drops in order of last insertion, skipping re-inserted and freed records; an expired one in flight stays', async () => {
    const { service, clock, use } = setup({ maxRecords: 3, ttlMs: 1000 });
    const a = await service.issue('t', 'connection.create');
    await use('key-b');
    await use('key-c', 'fp', null); // nothing kept: key-c is free again
    await use('key-d');
    await use(a.idempotencyKey); // first use of the issued key moves it to the tail
    await use('key-e'); // over the bound: key-b goes, not the issued key
    expect(await service.size()).toBe(3);
    expect(await use(a.idempotencyKey)).toBe('replay');
    expect(await use('key-d')).toBe('replay');
    const running = await service.begin('t', 'key-b', 'fp');
    expect(running.kind).toBe('new');
    clock.now = 10_000;
    await use('key-f');
    expect(await service.size()).toBe(2); // the expired ones went; key-b (in flight) and key-f stay
  });

  it('issued keys are unguessable, bind on first use, and stay issued when nothing was kept', async () => {
    const { service, use } = setup();
    const a = await service.issue('t', 'connection.create');
    const b = await service.issue('t', 'connection.create');
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(a.idempotencyKey).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
    expect(a.expiresAt).toBe(24 * 3600_000);
    expect(await use(a.idempotencyKey, 'fp1', null)).toBe('new');
    expect(await service.size()).toBe(2); // still issued
    expect(await use(a.idempotencyKey, 'fp2')).toBe('new');
    expect(await use(a.idempotencyKey, 'fp1')).toBe('conflict');
  });

  it('clear drops every record; an operation finishing afterwards writes nothing back', async () => {
    const { service, use } = setup();
    await use('k1');
    const running = await service.begin('t', 'k2', 'fp');
    await service.clear();
    if (running.kind === 'new') await running.finish(outcome);
    expect(await service.size()).toBe(0);
    expect(await use('k1', 'other')).toBe('new');
  });
});
