import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createIdempotencyStore } from './idempotency-store.ts';

const outcome = { status: 200, ok: true as const, data: {} };

describe('idempotency store', () => {
  it('expires keys on the clock and sweeps them', () => {
    let now = 0;
    const store = createIdempotencyStore(
      createClock(() => now),
      { ttlMs: 1000 },
    );
    const b = store.begin('t', 'k1', 'fp');
    if (b.kind === 'new') b.finish(outcome);
    expect(store.begin('t', 'k1', 'fp').kind).toBe('replay');
    now = 1000;
    const again = store.begin('t', 'k1', 'other');
    expect(again.kind).toBe('new');
    if (again.kind === 'new') again.finish(outcome);
    now = 5000;
    store.begin('t', 'k2', 'fp');
    expect(store.size()).toBe(1);
  });

  it('an issued key expires at the expiresAt it was issued with, however late its first use', () => {
    let now = 0;
    const store = createIdempotencyStore(
      createClock(() => now),
      { ttlMs: 1000 },
    );
    const { idempotencyKey, expiresAt } = store.issue('t', 'connection.create');
    expect(expiresAt).toBe(1000);
    now = 600; // first used well after issue
    const b = store.begin('t', idempotencyKey, 'fp');
    if (b.kind === 'new') b.finish(outcome);
    now = expiresAt - 1;
    expect(store.begin('t', idempotencyKey, 'fp').kind).toBe('replay');
    now = expiresAt;
    expect(store.begin('t', idempotencyKey, 'fp').kind).toBe('new');
  });

  it('keeps at most maxRecords, dropping the oldest first', () => {
    const store = createIdempotencyStore(
      createClock(() => 0),
      { maxRecords: 100 },
    );
    for (let i = 0; i < 1000; i++) {
      const b = store.begin('t', `key-${i}`, 'fp');
      if (b.kind === 'new') b.finish(outcome);
    }
    expect(store.size()).toBe(100);
    expect(store.begin('t', 'key-999', 'fp').kind).toBe('replay');
    expect(store.begin('t', 'key-0', 'fp').kind).toBe('new');
  });

  it('evicts in order of last insertion, skipping records that were re-inserted or freed', () => {
    let now = 0;
    const store = createIdempotencyStore(
      createClock(() => now),
      { maxRecords: 3, ttlMs: 1000 },
    );
    const a = store.issue('t', 'connection.create');
    const use = (key: string) => {
      const b = store.begin('t', key, 'fp');
      if (b.kind === 'new') b.finish(outcome);
    };
    use('key-b');
    const c = store.begin('t', 'key-c', 'fp');
    if (c.kind === 'new') c.finish(undefined); // nothing stored: key-c is free again
    use('key-d');
    use(a.idempotencyKey); // first use of the issued key moves it to the tail
    use('key-e'); // over the cap: key-b goes, not the issued key
    expect(store.size()).toBe(3);
    expect(store.begin('t', a.idempotencyKey, 'fp').kind).toBe('replay');
    expect(store.begin('t', 'key-d', 'fp').kind).toBe('replay');
    expect(store.begin('t', 'key-b', 'fp').kind).toBe('new');
    now = 10_000;
    use('key-f');
    expect(store.size()).toBe(2); // the expired ones went; key-b (in flight) and key-f stay
  });

  it('stays correct over many inserts past the cap', () => {
    const store = createIdempotencyStore(
      createClock(() => 0),
      { maxRecords: 50 },
    );
    for (let i = 0; i < 20_000; i++) {
      const b = store.begin('t', `key-${i % 7 === 0 ? 'same' : i}`, `fp${i % 7 === 0 ? 0 : i}`);
      if (b.kind === 'new') b.finish(outcome);
    }
    expect(store.size()).toBe(50);
    expect(store.begin('t', 'key-19998', 'fp19998').kind).toBe('replay');
    expect(store.begin('t', 'key-100', 'fp100').kind).toBe('new');
  });

  it('issued keys are unguessable, bind on first use, and are freed when nothing was stored', () => {
    const store = createIdempotencyStore(createClock(() => 0));
    const a = store.issue('t', 'connection.create');
    const b = store.issue('t', 'connection.create');
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(a.idempotencyKey).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
    expect(a.expiresAt).toBe(24 * 3600_000);
    const first = store.begin('t', a.idempotencyKey, 'fp1');
    expect(first.kind).toBe('new');
    if (first.kind === 'new') first.finish(undefined);
    const second = store.begin('t', a.idempotencyKey, 'fp2');
    expect(second.kind).toBe('new');
  });
});
