// The shared store failing: unreachable at start is exit 2 with one line naming the URL; lost while
// running answers 500 internal (the interface's pair for an operational disturbance; 503 with ?outage=503)
// with the failure envelope and a hint, and serves again once Redis is back.
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort, ncs } from '../cli-process.ts';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../redis-server.ts';
import { call, type PlainReplica, type Replica, startLocalReplica, startReplica } from './replicas.ts';

// The three processes are independent and mostly wait (start-up, a refused connection): side by side.
describe.concurrent('ncs serve --store', () => {
  it('exits 2 with one line naming the URL when Redis is unreachable at start', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}/0`;
    const r = await ncs(['serve', '--port', '0', '--store', url]);
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(url);
    expect(lines[0]).toMatch(/^ncs serve: cannot reach the shared store/);
  }, 30_000);

  it('refuses a URL that is not redis:// (exit 2) and masks a password in messages', async () => {
    const port = await closedPort();
    const [r, secret] = await Promise.all([
      ncs(['serve', '--port', '0', '--store', 'http://127.0.0.1:6379']),
      ncs(['serve', '--port', '0', '--store', `redis://user:s3cret-pw@127.0.0.1:${port}/0`]),
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--store takes a redis:\/\/ URL/);
    expect(secret.status).toBe(2);
    expect(secret.stderr).not.toContain('s3cret-pw');
    expect(secret.stderr).toContain(`redis://user:***@127.0.0.1:${port}/0`);
  }, 30_000);
});

describe.skipIf(!REDIS_SERVER)(
  `Redis lost while serving${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`,
  () => {
    let redis: TestRedis;
    let replica: Replica;
    let gateway: PlainReplica;
    afterAll(async () => {
      await replica?.stop();
      await gateway?.stop();
      await redis?.close();
    });

    it('answers 500 internal with the failure envelope and a hint, never crashes, and recovers with what was acknowledged', async () => {
      redis = await startRedis();
      // A second replica on the same Redis chose ?outage=503 (a gateway's status instead of the interface's 500).
      // Its subject is that status: it runs in this process (the library's serve() over real HTTP, as
      // `ncs serve --store` starts it); the first one is the process whose survival is checked. A crash
      // of this one (an error nothing handles) fails the test run; it must also answer again below.
      [replica, gateway] = await Promise.all([startReplica(redis.url), startLocalReplica(`${redis.url}?outage=503`)]);
      const { baseUrl, token, tenant } = replica.info;
      const body = {
        connectorId: 'tillcraft-pos-cloud',
        environment: 'sandbox',
        scopeLabel: 'Dock',
        capabilities: ['menu.read'],
      };
      const created = await call(baseUrl, token, tenant, '/connections', { body, key: 'before-the-outage' });
      expect(created.status).toBe(200);

      await redis.stop();
      for (const path of ['/providers', '/connections']) {
        const r = await call(
          baseUrl,
          token,
          tenant,
          path,
          path === '/connections' ? { body, key: 'during-the-outage' } : {},
        );
        const g = await call(
          gateway.info.baseUrl,
          gateway.info.token,
          tenant,
          path,
          path === '/connections' ? { body, key: 'during-the-outage-503' } : {},
        );
        for (const [answer, status] of [
          [r, 500],
          [g, 503],
        ] as const) {
          expect(answer.status).toBe(status);
          expect(answer.headers.get('retry-after')).toBe('1');
          expect(answer.json).toMatchObject({
            ok: false,
            error: { code: 'internal' },
            meta: { requestId: expect.any(String) },
          });
          expect(answer.json.error.hint).toMatch(/Retry/);
          expect(JSON.stringify(answer.json)).not.toContain(token);
        }
      }

      await redis.start();
      let after: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i < 50 && after?.status !== 200; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 100));
        after = await call(baseUrl, token, tenant, '/connections');
      }
      expect(after?.status).toBe(200);
      // Acknowledged before the outage (append-only file, fsync always): still there, replayed by its key.
      expect(after?.json.data.connections.map((c: { id: string }) => c.id)).toContain(created.json.data.id);
      const again = await call(baseUrl, token, tenant, '/connections', { body, key: 'before-the-outage' });
      expect(again.json).toMatchObject({ data: { id: created.json.data.id }, meta: { replayed: true } });
      // A replica started now rebuilds the state from the log Redis kept on disk (in this process: the
      // first one above is the process whose survival is checked).
      const fresh = await startLocalReplica(redis.url);
      try {
        const seen = await call(fresh.info.baseUrl, fresh.info.token, tenant, '/connections');
        expect(seen.json.data.connections.map((c: { id: string }) => c.id)).toContain(created.json.data.id);
      } finally {
        await fresh.stop();
      }
      expect(replica.child.exitCode).toBeNull();
      let gatewayAfter: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i < 50 && gatewayAfter?.status !== 200; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 100));
        gatewayAfter = await call(gateway.info.baseUrl, gateway.info.token, tenant, '/providers');
      }
      expect(gatewayAfter?.status).toBe(200);
      expect(replica.stderr()).not.toMatch(/internal error/);
    }, 60_000);
  },
);
