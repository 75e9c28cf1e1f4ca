// Round-8 attacks on the shared sandbox (README "Shared sandbox"): two replicas in this process on a
// private redis-server, raced and read across, streams resumed across, runs across. Loopback only.
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_REDIS_REASON, REDIS_SERVER } from '../redis-server.ts';
import { ADMIN_TOKEN, call, clientToken, openStream, type PlainReplica, startReplica } from '../shared/replicas.ts';
import { BODY, HARBOUR, key, sane, until, useReplicas } from './attacks-round8-redis-setup.ts';

describe.skipIf(!REDIS_SERVER)(
  `round 8: shared sandbox, two replicas${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`,
  () => {
    const { get, cli, on } = useReplicas();
    let a: PlainReplica;
    let b: PlainReplica;
    let token = '';
    beforeAll(() => {
      ({ a, b, token } = get());
    });
    const redis = {
      stop: () => get().redis.stop(),
      start: () => get().redis.start(),
      get port() {
        return get().redis.port;
      },
      get url() {
        return get().redis.url;
      },
    };

    it('a write on A is read on B at once, 30 times in a row (read-your-writes across replicas)', async () => {
      for (let i = 0; i < 30; i++) {
        const made = await on(a, '/connections', { body: { ...BODY, scopeLabel: `R8 ${i}` }, key: key() });
        expect(made.status, JSON.stringify(made.json)).toBe(200);
        const list = await on(b, '/connections');
        expect(list.json.data.connections.map((c: { id: string }) => c.id)).toContain(made.json.data.id);
      }
    });

    it('one key raced on both replicas with two bodies: one connection, the rest replays or 409', async () => {
      const k = key();
      const before = (await on(a, '/connections')).json.data.count;
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          on(i % 2 ? a : b, '/connections', { body: { ...BODY, scopeLabel: i % 4 < 2 ? 'Left' : 'Right' }, key: k }),
        ),
      );
      const ok = answers.filter((r) => r.status === 200);
      expect(new Set(ok.map((r) => r.json.data.id)).size).toBe(1);
      for (const r of answers) if (r.status !== 200) expect(r.json.error.code).toBe('idempotency_conflict');
      expect((await on(b, '/connections')).json.data.count).toBe(before + 1);
    });

    it('the same key text in two tenants on two replicas makes two connections, one each', async () => {
      const alpine = await clientToken(b.info.baseUrl, 'alpine-backend', 'ab-sandbox-secret-8e41d07c2a9f5b13');
      const k = key();
      const [x, y] = await Promise.all([
        on(a, '/connections', { body: BODY, key: k }),
        call(b.info.baseUrl, alpine, 'alpine-bistro', '/connections', { body: BODY, key: k }),
      ]);
      expect(x.status).toBe(200);
      expect(y.status).toBe(200);
      expect(x.json.data.id).not.toBe(y.json.data.id);
      const alpineList = await call(a.info.baseUrl, alpine, 'alpine-bistro', '/connections');
      expect(alpineList.json.data.connections.map((c: { id: string }) => c.id)).not.toContain(x.json.data.id);
    });

    it('a stream on B gets a write made on A, numbered consecutively, once', async () => {
      const s = await openStream(b.info.baseUrl, token, HARBOUR.tenant);
      await s.waitFor((e) => e.length > 0, 1000);
      const start = s.events.length;
      for (let i = 0; i < 3; i++) await on(a, '/connections', { body: BODY, key: key() });
      await s.waitFor((e) => e.filter((m) => m.event.startsWith('connection.created')).length >= 3, 10_000);
      const ids = s.events
        .slice(start)
        .map((e) => Number(e.id))
        .filter(Number.isFinite);
      for (let i = 1; i < ids.length; i++) expect(ids[i]).toBe((ids[i - 1] ?? 0) + 1);
      await s.close();
    });

    it('a run made on A answers its token on B, and its data stays out of the main sandbox', async () => {
      const res = await fetch(`${a.info.baseUrl}/_sandbox/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ttlSeconds: 60 }),
      });
      const run = (await res.json()) as any;
      expect(res.status, JSON.stringify(run)).toBe(200);
      const made = await call(b.info.baseUrl, run.data.token, run.data.tenant, '/connections', {
        body: BODY,
        key: key(),
      });
      expect(made.status, JSON.stringify(made.json)).toBe(200);
      const inRunOnA = await call(a.info.baseUrl, run.data.token, run.data.tenant, '/connections');
      expect(inRunOnA.json.data.connections.map((c: { id: string }) => c.id)).toContain(made.json.data.id);
      const main = await on(a, '/connections');
      expect(main.json.data.connections.map((c: { id: string }) => c.id)).not.toContain(made.json.data.id);
    });

    it("a sandbox started with ?prefix=<a run's id> does not open that run's state as its own", async () => {
      const res = await fetch(`${a.info.baseUrl}/_sandbox/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ttlSeconds: 120 }),
      });
      const run = (await res.json()) as { data: { runId: string; token: string; tenant: string } };
      const made = await call(a.info.baseUrl, run.data.token, run.data.tenant, '/connections', {
        body: { ...BODY, scopeLabel: 'Run private' },
        key: key(),
      });
      expect(made.status).toBe(200);
      let other: Awaited<ReturnType<typeof startReplica>> | undefined;
      try {
        other = await startReplica(`${get().redis.url}?prefix=${run.data.runId}`);
      } catch (e) {
        // Refusing a prefix that can name a run's namespace holds too.
        expect(String(e)).toMatch(/prefix/);
        return;
      }
      try {
        const t = await clientToken(other.info.baseUrl, HARBOUR.id, HARBOUR.secret);
        const list = await call(other.info.baseUrl, t, HARBOUR.tenant, '/connections');
        const ids = (list.json.data?.connections ?? []).map((c: { id: string }) => c.id);
        expect(ids).not.toContain(made.json.data.id);
        const viaRunToken = await call(other.info.baseUrl, run.data.token, run.data.tenant, '/connections');
        expect(viaRunToken.status).toBe(401);
      } finally {
        await other.stop();
      }
    }, 60_000);

    it('a 1 s run on Redis: gone after its TTL on both replicas, and its keys removed from Redis', async () => {
      const res = await fetch(`${a.info.baseUrl}/_sandbox/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ttlSeconds: 1 }),
      });
      const run = (await res.json()) as { data: { runId: string; token: string; tenant: string } };
      expect(
        (await call(b.info.baseUrl, run.data.token, run.data.tenant, '/connections', { body: BODY, key: key() }))
          .status,
      ).toBe(200);
      expect(cli('--scan', '--pattern', `*${run.data.runId}*`).trim()).not.toBe('');
      await new Promise((r) => setTimeout(r, 3500));
      for (const r of [a, b])
        expect((await call(r.info.baseUrl, run.data.token, run.data.tenant, '/connections')).status).toBe(401);
      expect(await until(async () => cli('--scan', '--pattern', `*${run.data.runId}*`).trim() === '', 10_000)).toBe(
        true,
      );
    }, 30_000);

    it('a stream read on A to message n and resumed on B from n: the next messages once, no gap', async () => {
      const first = await openStream(a.info.baseUrl, token, HARBOUR.tenant, '?cursor=0');
      await first.waitFor((e) => e.length > 2, 3000);
      const last = first.events.filter((e) => /^\d+$/.test(e.id)).at(-1)?.id ?? '0';
      await first.close();
      for (let i = 0; i < 3; i++) await on(a, '/connections', { body: BODY, key: key() });
      const second = await openStream(b.info.baseUrl, token, HARBOUR.tenant, '', { 'last-event-id': last });
      await second.waitFor((e) => e.filter((m) => /^\d+$/.test(m.id)).length >= 3, 10_000);
      const ids = second.events.map((e) => Number(e.id)).filter((x) => Number.isInteger(x) && x > 0);
      expect(ids[0]).toBe(Number(last) + 1);
      expect(new Set(ids).size).toBe(ids.length);
      await second.close();
    }, 30_000);
  },
);
