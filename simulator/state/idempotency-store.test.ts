import { describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';
import { createIdempotencyStore } from './idempotency-store.ts';

const outcome = { status: 200, payload: '{}', ok: true };

describe('idempotency store', () => {
  it('expires keys on the clock and sweeps them', () => {
    let now = 0;
    const store = createIdempotencyStore(createClock(() => now), { ttlMs: 1000 });
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

  it('keeps at most maxRecords, dropping the oldest first', () => {
    const store = createIdempotencyStore(createClock(() => 0), { maxRecords: 100 });
    for (let i = 0; i < 1000; i++) {
      const b = store.begin('t', `key-${i}`, 'fp');
      if (b.kind === 'new') b.finish(outcome);
    }
    expect(store.size()).toBe(100);
    expect(store.begin('t', 'key-999', 'fp').kind).toBe('replay');
    expect(store.begin('t', 'key-0', 'fp').kind).toBe('new');
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
