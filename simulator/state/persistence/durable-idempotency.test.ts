import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClock } from '../../lib/clock.ts';
import { createIdempotencyService } from '../../services/idempotency-service.ts';
import { createIdempotencyStore } from '../idempotency-store.ts';
import { type IdempotencyRecord, idempotencyRecordId } from '../ports/idempotency.ts';
import { durableIdempotency } from './durable-idempotency.ts';
import { memoryOnly } from './persistence.ts';
import { openSqlitePersistence } from './sqlite-persistence.ts';

const record = (key: string, change: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  id: idempotencyRecordId('t', key),
  tenant: 't',
  key,
  operation: undefined,
  fingerprint: 'fp',
  expiresAt: 1000,
  outcome: undefined,
  ...change,
});
const outcome = { status: 201, ok: true as const, data: { id: 'c1' } };

describe('durable idempotency records', () => {
  it('without a data dir returns the repository itself (the memory path pays nothing)', () => {
    const repo = createIdempotencyStore();
    expect(durableIdempotency(repo, memoryOnly)).toBe(repo);
  });

  it('writes settled records through (issued keys, kept outcomes), never one in flight, and loads them oldest expiry first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-idem-'));
    const p = openSqlitePersistence(dir);
    const repo = durableIdempotency(createIdempotencyStore(), p);
    repo.insert(record('issued', { operation: 'connection.create', fingerprint: undefined, expiresAt: 900 }));
    const used = record('used', { expiresAt: 800 });
    repo.insert(used); // in flight: not written
    expect([...p.entries('idempotency')].map(([k]) => k)).toEqual([idempotencyRecordId('t', 'issued')]);
    repo.update({ ...used, outcome });
    repo.insert(record('freed'));
    repo.remove(idempotencyRecordId('t', 'freed'));
    p.close();

    const again = openSqlitePersistence(dir);
    const loaded = createIdempotencyStore();
    durableIdempotency(loaded, again);
    expect(loaded.count()).toBe(2);
    expect(loaded.oldest()).toMatchObject({ key: 'used', outcome, fingerprint: 'fp' });
    expect(loaded.find(idempotencyRecordId('t', 'issued'))).toMatchObject({
      operation: 'connection.create',
      expiresAt: 900,
    });
    again.close();
  });

  it('an operation finishing after a reset writes nothing back: the data dir stays empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-idem-'));
    const p = openSqlitePersistence(dir);
    const service = createIdempotencyService({
      repository: durableIdempotency(createIdempotencyStore(), p),
      clock: createClock(() => 0),
    });
    const running = await service.begin('t', 'key-12345678', 'fp');
    await service.clear(); // the control plane's reset while the call runs
    if (running.kind === 'new') await running.finish(outcome);
    expect([...p.entries('idempotency')]).toEqual([]);
    p.close();
  });

  it('an operation whose record the bound dropped while it ran writes nothing back: the data dir keeps the bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-idem-'));
    const p = openSqlitePersistence(dir);
    const service = createIdempotencyService({
      repository: durableIdempotency(createIdempotencyStore(), p),
      clock: createClock(() => 0),
      options: { maxRecords: 1 },
    });
    const first = await service.begin('t', 'key-first-1', 'fp');
    const second = await service.begin('t', 'key-second', 'fp'); // over the bound: the first one's record goes
    if (second.kind === 'new') await second.finish(outcome);
    if (first.kind === 'new') await first.finish(outcome);
    expect([...p.entries('idempotency')].map(([k]) => k)).toEqual([idempotencyRecordId('t', 'key-second')]);
    p.close();
    // A restart loads what the running simulator kept, no more: the dropped key is not replayed.
    const loaded = createIdempotencyStore();
    durableIdempotency(loaded, openSqlitePersistence(dir));
    expect(loaded.count()).toBe(1);
  });

  it('loads the record shape written before outcomes were values (payload as JSON text)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-idem-'));
    const p = openSqlitePersistence(dir);
    const id = idempotencyRecordId('t', 'old');
    p.put('idempotency', id, {
      id,
      tenant: 't',
      key: 'old',
      fingerprint: 'fp',
      expiresAt: 5,
      outcome: { status: 201, ok: true, payload: '{"id":"c1"}' },
    });
    const loaded = createIdempotencyStore();
    const repo = durableIdempotency(loaded, p);
    expect(loaded.find(id)?.outcome).toEqual(outcome);
    repo.clear();
    expect([...p.entries('idempotency')]).toEqual([]);
    p.close();
  });
});
