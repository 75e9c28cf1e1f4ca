import { describe, expect, it } from 'vitest';
import { createIdempotencyStore } from './idempotency-store.ts';
import { type IdempotencyRecord, idempotencyRecordId } from './ports/idempotency.ts';

const record = (key: string, expiresAt = 1000): IdempotencyRecord => ({
  id: idempotencyRecordId('t', key),
  tenant: 't',
  key,
  operation: undefined,
  fingerprint: 'fp',
  expiresAt,
  outcome: undefined,
});

describe('idempotency repository (memory)', () => {
  it('finds records by id and answers the oldest inserted, skipping replaced and removed ones', () => {
    const repo = createIdempotencyStore();
    const [a, b, c] = [record('a'), record('b'), record('c')];
    repo.insert(a);
    repo.insert(b);
    repo.insert(c);
    expect(repo.find(a.id)).toBe(a);
    expect(repo.oldest()).toBe(a);
    repo.insert(record('a')); // re-inserted: now the newest
    expect(repo.oldest()).toBe(b);
    repo.remove(b.id);
    expect(repo.oldest()).toBe(c);
    expect(repo.count()).toBe(2);
  });

  it('updates fingerprint and outcome in place, keeping the order; unknown ids are ignored', () => {
    const repo = createIdempotencyStore();
    repo.insert(record('a'));
    repo.insert(record('b'));
    const outcome = { status: 200, ok: true as const, data: { id: 1 } };
    repo.update({ ...record('a'), outcome, fingerprint: 'fp2' });
    repo.update(record('zz'));
    expect(repo.find(idempotencyRecordId('t', 'a'))).toMatchObject({ outcome, fingerprint: 'fp2' });
    expect(repo.oldest()?.key).toBe('a');
    expect(repo.count()).toBe(2);
  });

  it('stays correct over many inserts and removals (the order is compacted)', () => {
    const repo = createIdempotencyStore();
    for (let i = 0; i < 20_000; i++) {
      repo.insert(record(`k${i}`));
      if (repo.count() > 50) repo.remove(repo.oldest()?.id ?? '');
    }
    expect(repo.count()).toBe(50);
    expect(repo.oldest()?.key).toBe('k19950');
    repo.clear();
    expect(repo.oldest()).toBeUndefined();
    expect(repo.count()).toBe(0);
  });
});
