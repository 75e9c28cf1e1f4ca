// One durability approach: the same durable<Store> decorators (state/persistence/durable-*.ts) write
// every store through to the SQLite data dir and to a shared sandbox's snapshot persistence, and load
// both back the same way. The same calls give the same records in both, and a state built from a
// snapshot answers what a state loaded from the data dir answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.ts';
import { createClock } from '../lib/clock.ts';
import { withSeededIds } from '../lib/ids.ts';
import type { Persistence } from '../state/persistence/persistence.ts';
import { DATABASE_FILE, openSqlitePersistence } from '../state/persistence/sqlite-persistence.ts';
import { createSnapshotPersistence, type PersistedState } from '../state/redis/snapshot-persistence.ts';
import { loadFixtures } from './fixtures-loader.ts';
import { createSandboxState, type SandboxState } from './sandbox-state.ts';

const T0 = Date.UTC(2026, 10, 26, 1, 0, 0);
const fixtures = loadFixtures();
const tenant = 'harbour-kitchens';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * A state over `persistence` with a fixed sandbox time, receivers that answer 204 without a socket, and
 * signatures stamped with that fixed time too: they are signed on real time (Date.now), so two states
 * delivering a second apart recorded different signature headers (seen under load in a clean clone).
 */
const stateOver = (persistence: Persistence) =>
  createSandboxState({
    fixtures,
    environment: 'sandbox',
    tokenTtlSeconds: 900,
    activationDelayMs: 1000,
    clock: createClock(() => T0),
    persistence,
    rateLimit: false,
    webhooks: {
      fetch: async () => new Response(null, { status: 204 }),
      jitterRatio: 0,
      sign: (body, secret) => signWebhook(body, secret, T0 / 1000),
    },
  });

const caller = (n: number) => ({ actor: 'test', requestId: `req_${n}` });
const input = (scopeLabel: string) => ({
  tenant,
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox' as const,
  scopeLabel,
  capabilities: [{ capability: 'orders.read', critical: false, idempotencyRequired: false }],
});

/** The same calls on any state, each with ids derived from its own seed (as a replica applies a log entry). */
async function script(state: SandboxState) {
  await state.ready;
  const step = <T>(n: number, fn: () => T) => withSeededIds(`step-${n}`, fn);
  const first = await step(1, () => state.connections.create(input('Pier 1'), caller(1)));
  await step(2, () => state.connections.create(input('Pier 2'), caller(2)));
  await step(3, () => state.clock.advance(5000));
  await step(4, () => state.connections.setState(first.id, 'paused', caller(4)));
  await step(5, () => state.connections.create(input('Pier 3'), caller(5)));
  const { receiver: kept } = await step(6, () =>
    state.receivers.create(tenant, { url: 'http://127.0.0.1:9/kept', events: ['order.paid'] }, caller(6)),
  );
  const { receiver: gone } = await step(7, () =>
    state.receivers.create(tenant, { url: 'http://127.0.0.1:9/gone', events: ['order.paid'] }, caller(7)),
  );
  await step(8, () => state.receivers.remove(tenant, gone.id));
  const delivery = step(9, () =>
    state.dispatcher.deliver(
      { id: kept.id, url: kept.url, secret: kept.secret, tenant },
      { id: 'evt_fixed', type: 'order.paid', payload: { orderId: 'ord_1' } },
    ),
  );
  for (let i = 0; i < 100 && (await state.dispatcher.log.get(delivery.id))?.status === 'pending'; i++)
    await new Promise((r) => setTimeout(r, 10));
  return { kept: kept.id, delivery: delivery.id };
}

/** Every record and log entry in a data dir, as a snapshot holds them. */
function readDataDir(dir: string): PersistedState {
  const db = new DatabaseSync(join(dir, DATABASE_FILE), { readOnly: true });
  try {
    const records = new Map<string, [string, unknown][]>();
    for (const r of db.prepare('SELECT ns, key, value FROM records ORDER BY rowid').all() as Record<string, string>[])
      records.set(r.ns as string, [
        ...(records.get(r.ns as string) ?? []),
        [r.key as string, JSON.parse(r.value as string)],
      ]);
    const logs = new Map<string, [number, unknown][]>();
    for (const r of db.prepare('SELECT log, seq, value FROM logs ORDER BY log, seq').all() as Record<string, string>[])
      logs.set(r.log as string, [...(logs.get(r.log as string) ?? []), [Number(r.seq), JSON.parse(r.value as string)]]);
    return { records: [...records], logs: [...logs] };
  } finally {
    db.close();
  }
}

/** What a client could observe of a state: connections, receivers, deliveries, clock, audit and stream heads. */
async function observed(state: SandboxState, ids: { kept: string; delivery: string }) {
  await state.ready;
  return {
    digest: await state.snapshot(),
    connections: await state.connections.list(tenant),
    receivers: await state.receivers.list(tenant),
    deliveries: await state.dispatcher.log.listByReceiver(ids.kept),
    delivery: await state.dispatcher.log.get(ids.delivery),
    clock: { now: state.clock.now(), offset: state.clock.offset() },
    audit: state.audit.head(tenant),
  };
}

const byName = <T extends [string, unknown]>(list: T[]) => [...list].sort((a, b) => a[0].localeCompare(b[0]));

describe('one durability approach: the SQLite data dir and the shared snapshot persistence', () => {
  it('the same calls write the same records to SQLite and to the snapshot persistence; both load back alike', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-one-approach-'));
    dirs.push(dir);
    const sqlite = openSqlitePersistence(dir);
    const onDisk = stateOver(sqlite);
    const snapshot = createSnapshotPersistence();
    const inMemory = stateOver(snapshot);
    const ids = await script(onDisk);
    expect(await script(inMemory)).toEqual(ids);
    const before = await observed(onDisk, ids);
    expect(await observed(inMemory, ids)).toEqual(before);
    expect(before.connections.map((c) => c.state)).toEqual(['paused', 'active', 'pending']);
    expect(before.delivery?.status).toBe('succeeded');
    // Signed at the fixed time in both states, whenever each one delivered.
    expect(before.delivery?.attempts.map((a) => a.signature?.split(',')[0])).toEqual([`t=${T0 / 1000}`]);
    await onDisk.close();
    await inMemory.close();

    // The records: namespace by namespace, log by log, the same values in the same order.
    const dumped = JSON.parse(JSON.stringify(snapshot.dump())) as PersistedState;
    const written = readDataDir(dir);
    expect(byName(written.records)).toEqual(byName(dumped.records));
    expect(byName(written.logs)).toEqual(byName(dumped.logs));
    for (const ns of ['connections', 'webhooks', 'deliveries', 'clock'])
      expect(dumped.records.map(([name]) => name)).toContain(ns);

    // Loading: a data dir reopened and a replica built from the snapshot answer the same, as before.
    const reopened = stateOver(openSqlitePersistence(dir));
    const replica = stateOver(createSnapshotPersistence(dumped));
    const loaded = await observed(reopened, ids);
    expect(await observed(replica, ids)).toEqual(loaded);
    expect(loaded).toEqual(before);
    // And both go on alike: the pending connection falls due on either.
    await reopened.clock.advance(5000);
    await replica.clock.advance(5000);
    expect((await reopened.connections.list(tenant)).map((c) => c.state)).toEqual(['paused', 'active', 'active']);
    expect(await observed(replica, ids)).toEqual(await observed(reopened, ids));
    await reopened.close();
    await replica.close();
  });
});
