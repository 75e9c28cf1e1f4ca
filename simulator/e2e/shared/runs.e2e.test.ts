// Per-run isolation: POST /_sandbox/runs (ncs sandbox run create --ttl) on the memory store and across
// two replicas on Redis: a run's connections, clock and stream are its own, and it is gone after its TTL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';
import { ncs } from '../cli-process.ts';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../redis-server.ts';
import { ADMIN_TOKEN, call, type PlainReplica, startLocalReplica, startReplica } from './replicas.ts';

const BODY = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'CI job',
  capabilities: ['menu.read'],
};

async function createRun(base: string, admin: string, body: unknown = { ttlSeconds: 60 }) {
  const res = await fetch(`${base}/_sandbox/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

/**
 * The two suites run at the same time (each against its own servers; the replicas' start and the TTL
 * waits leave the cores idle), the tests within a suite one after another (they share its server).
 */
/**
 * Waits out a run's TTL (real time): until 300 ms past the expiresAt it was given, the margin the
 * tests had over the TTL, counted from the expiry instead of from after the calls that came before.
 */
const pastExpiry = (expiresAt: string) =>
  new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiresAt) + 300 - Date.now())));

const SIDE_BY_SIDE = { concurrent: true };
const IN_ORDER = { concurrent: false };

describe('per-run isolation on the memory store', SIDE_BY_SIDE, () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await serve({ port: 0, inspector: false });
  });
  afterAll(() => s?.close());

  it(
    'answers token, tenant, adminToken and expiresAt; refuses without the admin token or with a bad TTL',
    IN_ORDER,
    async () => {
      const r = await createRun(s.baseUrl, s.sandbox.adminToken);
      expect(r.status).toBe(200);
      expect(r.json.data).toMatchObject({
        runId: expect.any(String),
        token: expect.any(String),
        tenant: s.tenant,
        adminToken: expect.any(String),
      });
      expect(Date.parse(r.json.data.expiresAt) - Date.now()).toBeGreaterThan(55_000);
      expect((await createRun(s.baseUrl, 'wrong-token-123')).status).toBe(401);
      expect((await createRun(s.baseUrl, s.sandbox.adminToken, { ttlSeconds: 0 })).json.error.code).toBe(
        'invalid_request',
      );
    },
  );

  it(
    'keeps connections, clock and stream of each run apart from the sandbox and from other runs',
    IN_ORDER,
    async () => {
      const one = (await createRun(s.baseUrl, s.sandbox.adminToken)).json.data;
      const two = (await createRun(s.baseUrl, s.sandbox.adminToken)).json.data;
      const made = await call(s.baseUrl, one.token, one.tenant, '/connections', { body: BODY, key: 'run-one-0001' });
      expect(made.status).toBe(200);
      const ids = async (token: string) =>
        (await call(s.baseUrl, token, s.tenant, '/connections')).json.data.connections.map((c: { id: string }) => c.id);
      expect(await ids(one.token)).toEqual([made.json.data.id]);
      expect(await ids(two.token)).toEqual([]);
      expect(await ids(s.token)).not.toContain(made.json.data.id);
      // The run's control plane moves the run's clock only.
      const advance = await fetch(`${s.baseUrl}/_sandbox/clock/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${one.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 60 }),
      });
      expect(advance.status).toBe(200);
      expect(s.sandbox.control.clock().offsetMs).toBe(0);
    },
  );

  it('is gone after its TTL', IN_ORDER, async () => {
    const before = s.sandbox.runs?.count();
    // 3 s, as the replicas' suite beside it: the call before the expiry must land inside the TTL, and this
    // worker also starts that suite's in-process replica (a second of CPU under load: a 1 s TTL was seen
    // to end before its first call on the clean-clone CI).
    const run = (await createRun(s.baseUrl, s.sandbox.adminToken, { ttlSeconds: 3 })).json.data;
    expect((await call(s.baseUrl, run.token, run.tenant, '/providers')).status).toBe(200);
    await pastExpiry(run.expiresAt);
    expect((await call(s.baseUrl, run.token, run.tenant, '/providers')).status).toBe(401);
    // Closed a second after its expiry (its streams are told their token expired first).
    for (let waited = 0; s.sandbox.runs?.count() !== before && waited < 2000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    expect(s.sandbox.runs?.count()).toBe(before);
  });

  it('ncs sandbox run create --ttl prints the run', { ...IN_ORDER, timeout: 30_000 }, async () => {
    const r = await ncs([
      'sandbox',
      '--base-url',
      s.baseUrl,
      '--admin-token',
      s.sandbox.adminToken,
      'run',
      'create',
      '--ttl',
      '30',
    ]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const run = JSON.parse(r.stdout);
    expect((await call(s.baseUrl, run.token, run.tenant, '/connections')).json.data.count).toBe(0);
  });
});

describe.skipIf(!REDIS_SERVER)(
  `per-run isolation across replicas${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`,
  SIDE_BY_SIDE,
  () => {
    let redis: TestRedis;
    let a: PlainReplica;
    let b: PlainReplica;
    beforeAll(async () => {
      redis = await startRedis();
      // A in a process of its own, B in this one (the library's serve() on the same Redis).
      [a, b] = await Promise.all([startReplica(redis.url), startLocalReplica(redis.url)]);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await redis?.close();
    });

    it('a run created on one replica is answered by the other, apart from the sandbox, and gone after its TTL', {
      ...IN_ORDER,
      timeout: 30_000,
    }, async () => {
      // 8 s: long enough that a loaded CI worker makes the three calls before the run expires.
      const run = (await createRun(a.info.baseUrl, ADMIN_TOKEN, { ttlSeconds: 8 })).json.data;
      const made = await call(b.info.baseUrl, run.token, run.tenant, '/connections', {
        body: BODY,
        key: 'run-shared-01',
      });
      expect(made.status).toBe(200);
      const onA = await call(a.info.baseUrl, run.token, run.tenant, '/connections');
      expect(onA.json.data.connections.map((c: { id: string }) => c.id)).toEqual([made.json.data.id]);
      const main = await call(a.info.baseUrl, a.info.token, a.info.tenant, '/connections');
      expect(main.json.data.connections.map((c: { id: string }) => c.id)).not.toContain(made.json.data.id);
      await pastExpiry(run.expiresAt);
      for (const base of [a.info.baseUrl, b.info.baseUrl])
        expect((await call(base, run.token, run.tenant, '/connections')).status).toBe(401);
    });
  },
);
