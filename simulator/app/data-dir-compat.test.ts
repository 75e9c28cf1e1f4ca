// A data dir written before the durable<Store> decorators (commit 8d8995b, stores writing through
// inline) loads unchanged: same namespaces, same record shapes. The fixture was written by `createSandbox({
// dataDir })` of that commit: two connections created with a 60 s activation delay, the clock advanced
// 120 s (both active), the first paused, a third created (pending), two receivers registered and one
// deleted, an order.paid triggered to the kept receiver (its first attempt failed: pending, retry due).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { openSqlitePersistence } from '../state/persistence/sqlite-persistence.ts';
import { loadFixtures } from './fixtures-loader.ts';
import { createSandboxState } from './sandbox-state.ts';

const FIXTURE = join(import.meta.dirname, '../state/persistence/fixtures/data-dir-8d8995b');
const tenant = 'harbour-kitchens';
const written = {
  paused: 'con_I1i_m7XmVy3alKln',
  active: 'con_Syw3PgVR5gjVbhKn',
  pending: 'con_zQfa-jZdvudNHb6T',
  kept: 'wh_R5apJfyprBvWoOsl',
  removed: 'wh_mRfqZfVqGgJNBADr',
  delivery: 'dlv_lh1gBzxJBiwB3F3u',
  // The stored clock: {offsetMs: 120000, sandboxNow: 1795655291956}; real time when written: 120 s less.
  sandboxNow: 1795655291956,
  realThen: 1795655291956 - 120_000,
};
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a data dir written by the code before the decorators', () => {
  it('loads connections (with the due queue), receivers, deliveries (resuming the pending one) and the clock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-data-dir-compat-'));
    dirs.push(dir);
    cpSync(FIXTURE, dir, { recursive: true });
    const attempts: string[] = [];
    const state = createSandboxState({
      fixtures: loadFixtures(),
      environment: 'sandbox',
      tokenTtlSeconds: 900,
      activationDelayMs: 60_000,
      // Real time as it was when the dir was written: the stored offset alone decides sandbox time.
      clock: createClock(() => written.realThen),
      persistence: openSqlitePersistence(dir),
      rateLimit: false,
      webhooks: {
        fetch: async (url) => {
          attempts.push(String(url));
          return new Response(null, { status: 204 });
        },
      },
    });
    try {
      await state.ready;
      expect({ now: state.clock.now(), offset: state.clock.offset() }).toEqual({
        now: written.sandboxNow,
        offset: 120_000,
      });
      expect((await state.connections.list(tenant)).map((c) => [c.id, c.state, c.scopeLabel])).toEqual([
        [written.paused, 'paused', 'Harbour Kitchens, Pier 1'],
        [written.active, 'active', 'Harbour Kitchens, Pier 2'],
        [written.pending, 'pending', 'Harbour Kitchens, Pier 3'],
      ]);
      expect(await state.connections.nextDue()).toBe(written.sandboxNow + 60_001);
      const receivers = await state.receivers.list(tenant);
      expect(receivers.map((r) => [r.id, r.url, r.events])).toEqual([
        [written.kept, 'http://127.0.0.1:9/kept', ['order.paid']],
      ]);
      expect(receivers[0]?.secret).toMatch(/^whsec_/);
      expect(await state.receivers.get(tenant, written.removed)).toBeUndefined();
      // The delivery cut at shutdown is resumed against the stored receiver and succeeds this time.
      for (let i = 0; i < 200 && attempts.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(attempts).toEqual(['http://127.0.0.1:9/kept']);
      for (let i = 0; i < 100 && (await state.dispatcher.log.get(written.delivery))?.status === 'pending'; i++)
        await new Promise((r) => setTimeout(r, 10));
      const delivery = await state.dispatcher.log.get(written.delivery);
      expect(delivery?.status).toBe('succeeded');
      expect(delivery?.attempts.map((a) => a.error ?? a.status)).toEqual(['network: bad port', 204]);
      // The pending connection falls due on the restored sandbox clock.
      await state.clock.advance(61_000);
      expect((await state.connections.list(tenant)).map((c) => c.state)).toEqual(['paused', 'active', 'active']);
    } finally {
      await state.close();
    }
  });
});
