// A kill -9 at any instant of an idempotent call on a data dir: the call's writes (its connection or
// receiver, audit entry, stream message, delivery) and its key's outcome are committed together, so a
// restart finds all of them or none, and the key retried never makes a second connection. A kill is
// simulated at every write of one call in turn: from that write on nothing reaches the database (a
// transaction not committed is not there after a crash, as with SQLite's WAL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tenantFeed } from '../events/feed.ts';
import type { Persistence } from '../state/persistence/persistence.ts';
import { openSqlitePersistence } from '../state/persistence/sqlite-persistence.ts';
import { createCore } from './create-core.ts';
import { loadFixtures } from './fixtures-loader.ts';
import { createSandboxState } from './sandbox-state.ts';

const fixtures = loadFixtures();
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

class Killed extends Error {}

/** A persistence that can die: from its `killAt`-th write on, nothing reaches the database. */
function killable(inner: Persistence) {
  let writes = 0;
  let inTransaction = 0;
  let open = false;
  let killAt = Number.POSITIVE_INFINITY;
  const write =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      // The kill cuts the write under way; after it the process is gone and nothing more reaches the
      // database (its dispatcher, still running in this test's process, must not throw into other tests).
      if (++writes === killAt) throw new Killed(`killed at write ${killAt}`);
      if (writes > killAt) return;
      if (open) inTransaction++;
      fn(...args);
    };
  const p: Persistence = {
    ...inner,
    put: write(inner.put),
    delete: write(inner.delete),
    append: write(inner.append),
    trimLog: write(inner.trimLog),
    deleteNamespace: write(inner.deleteNamespace),
    deleteLogs: write(inner.deleteLogs),
    // A process killed inside a transaction never commits it.
    transaction: (fn) =>
      inner.transaction(() => {
        open = true;
        try {
          const result = fn();
          if (writes >= killAt) throw new Killed('killed before the commit');
          return result;
        } finally {
          open = false;
        }
      }),
    committed: () => inner.committed?.(),
  };
  return {
    p,
    writes: () => writes,
    /** Writes made inside a transaction so far. */
    inTransaction: () => inTransaction,
    /** The `n`-th write from now on is the first that never happens. */
    killAfter: (n: number) => {
      killAt = writes + n;
    },
    dead: () => writes >= killAt,
  };
}

async function open(persistence: Persistence) {
  const state = createSandboxState({
    fixtures,
    environment: 'sandbox',
    tokenTtlSeconds: 900,
    activationDelayMs: 0,
    persistence,
    rateLimit: false,
    // A receiver that never answers: a delivery's attempt writes nothing while the call is checked.
    webhooks: {
      fetch: (_url, init) =>
        new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    },
  });
  const core = createCore({ state, servers: [] });
  await core.ready;
  const client = fixtures.clients.find((c) => c.id === fixtures.defaultClient);
  if (!client) throw new Error('no default client');
  const issued = await state.tokens.issue({
    clientId: client.id,
    tenants: client.tenants,
    scopes: client.scopes,
    environment: client.environment,
  });
  const tenant = client.tenants[0] ?? '';
  const call = async (method: string, path: string, key?: string, body?: unknown) => {
    const res = await core.handle({
      method,
      path: `/api/public/v1${path}`,
      query: {},
      headers: {
        authorization: `Bearer ${issued.token}`,
        'x-service-tenant': tenant,
        'content-type': 'application/json',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      ...(body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)) }),
    });
    return { status: res.status, json: JSON.parse(res.body ?? 'null') };
  };
  return { state, call, tenant };
}

const CONNECTION = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'Kill',
  capabilities: ['orders.read'],
};

describe('an idempotent call on a data dir, killed at any of its writes', () => {
  it('POST /connections: after the restart the key replays its one connection or makes it once', async () => {
    // How many writes one creation makes (with a receiver subscribed, so a delivery is written too).
    const probe = mkdtempSync(join(tmpdir(), 'ncs-commit-'));
    dirs.push(probe);
    const counting = killable(openSqlitePersistence(probe));
    const first = await open(counting.p);
    const receiver = await first.call('POST', '/webhooks', 'commit-receiver', {
      url: 'http://127.0.0.1:9/hook',
      events: ['connection.created'],
    });
    expect(receiver.status).toBe(200);
    // Its stream message goes out once committed, never inside the transaction.
    const told: boolean[] = [];
    first.state.feeds.subscribe(tenantFeed(first.tenant), () => told.push(counting.p.committed?.() === undefined));
    const before = counting.writes();
    const inUnit = counting.inTransaction();
    expect((await first.call('POST', '/connections', 'commit-probe', CONNECTION)).status).toBe(200);
    // The connection, its audit entry, its stream message, its delivery and the key's outcome (the
    // delivery's attempt never ends here, so nothing of it is written yet), all in one transaction.
    const perCall = counting.writes() - before;
    expect.soft(counting.inTransaction() - inUnit, 'writes of the call inside its transaction').toBe(perCall);
    expect(perCall).toBeGreaterThanOrEqual(5);
    expect(told).toEqual([true]);
    await first.state.close();

    for (let k = 1; k <= perCall; k++) {
      const dir = mkdtempSync(join(tmpdir(), 'ncs-commit-'));
      dirs.push(dir);
      const setup = await open(openSqlitePersistence(dir));
      expect(
        (
          await setup.call('POST', '/webhooks', 'commit-receiver', {
            url: 'http://127.0.0.1:9/hook',
            events: ['connection.created'],
          })
        ).status,
      ).toBe(200);
      await setup.state.close();

      const sqlite = openSqlitePersistence(dir);
      const dying = killable(sqlite);
      const doomed = await open(dying.p);
      dying.killAfter(k);
      const cut = await doomed.call('POST', '/connections', 'commit-key', CONNECTION);
      expect(dying.dead(), `write ${k} of ${perCall} reached`).toBe(true);
      expect(cut.status, `kill at write ${k}`).toBe(500);
      // The process is gone: nothing more of it reaches the database.
      doomed.state.timeline.close();
      sqlite.close();

      const after = await open(openSqlitePersistence(dir));
      const retried = await after.call('POST', '/connections', 'commit-key', CONNECTION);
      expect(retried.status, `kill at write ${k}`).toBe(200);
      const list = await after.call('GET', '/connections');
      const ids = (list.json.data.connections as { id: string }[]).map((c) => c.id);
      expect(ids, `kill at write ${k} of ${perCall}: one connection for the key`).toEqual([retried.json.data.id]);
      await after.state.close();
    }
  });
});
