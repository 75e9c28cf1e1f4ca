import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';
import { NCS_BIN, TEST_START_TIMEOUT_MS, waitForReadyFile } from '../ready-file.ts';
import { REDIS_SERVER, startRedis } from '../redis-server.ts';
import { ODD_RECEIVERS, tcpReceiver } from './attacks-round6-helpers.ts';

// Hardening round 6, the attacks that need many connections, receivers or a restart (all held). The
// one-request attacks and those that did not hold: attacks-round6.e2e.test.ts.
let s: RunningServer;
beforeAll(async () => {
  s = await serve({ port: 0, rateLimit: false, inspector: false, webhooks: { baseDelayMs: 50 } });
});
afterAll(() => s?.close());

const headers = (token = s.token, tenant = s.tenant) => ({
  authorization: `Bearer ${token}`,
  'x-service-tenant': tenant,
  'content-type': 'application/json',
});
const CONNECTION = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'Race',
  capabilities: ['orders.read'],
};
const create = async (key: string, h = headers(), body: object = CONNECTION, base = s.baseUrl) => {
  const res = await fetch(`${base}/api/public/v1/connections`, {
    method: 'POST',
    headers: { ...h, 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: { id: string }; meta: { replayed?: boolean }; error?: { code: string } };
  return { status: res.status, id: json.data?.id, replayed: json.meta.replayed === true, code: json.error?.code };
};

describe('attacks round 6: idempotency races', () => {
  let integrator: string;
  beforeAll(async () => {
    const res = await fetch(`${s.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=network-integrator&client_secret=ni-sandbox-secret-3b7d9e2f0a6c4851',
    });
    integrator = ((await res.json()) as { access_token: string }).access_token;
  });

  it('one key at once from one client for two tenants: one connection per tenant, never shared', async () => {
    const all = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        create('round6-two-tenants', headers(integrator, i % 2 ? 'alpine-bistro' : s.tenant)),
      ),
    );
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(new Set(all.map((r) => r.id)).size).toBe(2);
  });

  it('one key at once with two bodies, or from two clients of one tenant: one connection, the others 409', async () => {
    const bodies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        create('round6-two-bodies', headers(), { ...CONNECTION, scopeLabel: i % 2 ? 'A-body' : 'B-body' }),
      ),
    );
    const clients = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create('round6-two-clients', i % 2 ? headers(integrator) : headers())),
    );
    for (const all of [bodies, clients]) {
      expect(new Set(all.filter((r) => r.status === 200).map((r) => r.id)).size).toBe(1);
      expect(all.filter((r) => r.status === 409).every((r) => r.code === 'idempotency_conflict')).toBe(true);
      expect(all.filter((r) => r.status === 409).length).toBeGreaterThanOrEqual(10);
    }
  });
});

describe('attacks round 6: receivers that do not speak HTTP as expected', () => {
  it('every attempt is logged with a reason, deliveries go on, the API keeps answering', async () => {
    const hooks: { name: string; id: string; attempt: RegExp; close(): void }[] = [];
    const register = async (name: string, url: string, attempt: RegExp, close = () => {}) => {
      const res = await fetch(`${s.baseUrl}/api/public/v1/webhooks`, {
        method: 'POST',
        headers: { ...headers(), 'idempotency-key': `round6-receiver-${hooks.length}` },
        body: JSON.stringify({ url, events: ['order.paid'] }),
      });
      expect(res.status, name).toBe(200);
      hooks.push({ name, id: ((await res.json()) as { data: { id: string } }).data.id, attempt, close });
    };
    for (const [name, odd] of Object.entries(ODD_RECEIVERS)) {
      const r = await tcpReceiver(odd.on);
      await register(name, r.url, odd.attempt, () => r.server.close());
    }
    // The simulator itself as a receiver: its control plane and its own receiver registration (no loop).
    await register('the control plane', `${s.baseUrl}/_sandbox/trigger`, /^http_401$/);
    await register('its own webhooks route', `${s.baseUrl}/api/public/v1/webhooks`, /^http_401$/);
    const trigger = await fetch(`${s.baseUrl}/_sandbox/trigger`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.sandbox.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'order.paid', tenant: s.tenant }),
    });
    expect(trigger.status).toBe(200);
    type Attempt = { error?: string; status?: number };
    const first = async (id: string) => {
      const res = await fetch(`${s.baseUrl}/api/public/v1/webhooks/${id}/deliveries`, { headers: headers() });
      const json = (await res.json()) as { data: { deliveries: { attempts: Attempt[] }[] } };
      return json.data.deliveries[0]?.attempts[0];
    };
    for (const hook of hooks) {
      await expect.poll(() => first(hook.id), { timeout: 8000, message: hook.name }).toBeDefined();
      const attempt = (await first(hook.id)) as Attempt;
      expect(attempt.error ?? 'ok', hook.name).toMatch(hook.attempt);
    }
    const started = performance.now();
    expect((await fetch(`${s.baseUrl}/api/public/v1/providers`, { headers: headers() })).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(500);
    for (const hook of hooks) hook.close();
  }, 20_000);
});

describe('attacks round 6: the inspector with the wrong keys', () => {
  it('the admin token, an access token or a forged cookie open nothing; nothing is echoed', async () => {
    const i = await serve({ port: 0, rateLimit: false });
    try {
      const admin = i.sandbox.adminToken;
      const tries: [string, Record<string, string>][] = [
        ['/_sandbox/inspector/api/journal', { authorization: `Bearer ${admin}` }],
        ['/_sandbox/inspector/api/journal', { cookie: 'ncs_inspector=forged', 'x-ncs-inspector-session': 'forged' }],
        ['/_sandbox/inspector/api/reset', { authorization: `Bearer ${i.token}`, 'x-service-tenant': i.tenant }],
        [`/_sandbox/inspector/?token=${admin}`, {}],
        [`/_sandbox/inspector/?token=${i.token}`, {}],
      ];
      for (const [path, h] of tries) {
        const res = await fetch(`${i.baseUrl}${path}`, { method: path.endsWith('reset') ? 'POST' : 'GET', headers: h });
        const text = await res.text();
        expect(res.status, path).toBe(401);
        expect(text, path).not.toContain(admin);
        expect(text, path).not.toContain(i.token);
      }
      // The real login link still works afterwards (no lock-out).
      expect((await fetch(i.inspectorUrl ?? '', { redirect: 'manual' })).status).toBeLessThan(400);
    } finally {
      await i.close();
    }
  });
});

describe('attacks round 6: a thousand streams at once, then all gone', () => {
  it('900 tenant and 100 anonymous streams open, the API answers, and every place is freed', async () => {
    const port = Number(new URL(s.baseUrl).port);
    const open = (auth: string) =>
      new Promise<Socket>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(`GET /api/public/v1/stream HTTP/1.1\r\nHost: x\r\n${auth}\r\n`);
          resolve(socket);
        });
        socket.on('error', () => undefined);
        socket.resume();
      });
    const tenant = `Authorization: Bearer ${s.token}\r\nx-service-tenant: ${s.tenant}\r\n`;
    const sockets = await Promise.all([
      ...Array.from({ length: 900 }, () => open(tenant)),
      ...Array.from({ length: 100 }, () => open('')),
    ]);
    await expect.poll(() => s.sandbox.core.streams.open(), { timeout: 10_000 }).toBe(1000);
    const started = performance.now();
    expect((await fetch(`${s.baseUrl}/api/public/v1/providers`, { headers: headers() })).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
    // Half leave with a reset, half with a FIN.
    for (const [i, socket] of sockets.entries()) {
      if (i % 2) socket.resetAndDestroy();
      else socket.end();
    }
    await expect.poll(() => s.sandbox.core.streams.open(), { timeout: 10_000 }).toBe(0);
  }, 30_000);
});

describe('attacks round 6: refused calls repeated with ever new values keep nothing', () => {
  it('8,000 calls with new tenants, tokens, client ids and unknown ids: the heap stays flat', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed / 1e6;
    };
    const pad = 'x'.repeat(200);
    const kinds: ((i: number) => Promise<Response>)[] = [
      (i) => fetch(`${s.baseUrl}/api/public/v1/providers`, { headers: headers(s.token, `t-${i}-${pad}`) }),
      (i) => fetch(`${s.baseUrl}/api/public/v1/providers`, { headers: headers(`ncs_at_${i}${pad}`) }),
      (i) =>
        fetch(`${s.baseUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `grant_type=client_credentials&client_id=c${i}${pad}&client_secret=s`,
        }),
      (i) => fetch(`${s.baseUrl}/api/public/v1/webhooks/wh_${i}${pad}`, { headers: headers() }),
    ];
    const run = async (from: number) => {
      for (let i = from; i < from + 2000; i += 50)
        await Promise.all(
          kinds.flatMap((k) => Array.from({ length: 50 }, (_, j) => k(i + j).then((r) => r.arrayBuffer()))),
        );
    };
    await run(0); // warm: code, caches and pools reach their size
    const before = heap();
    await run(1_000_000);
    const grown = heap() - before;
    console.log(`round 6: heap after 8,000 refused calls with new values: ${grown.toFixed(1)} MB`);
    expect(grown).toBeLessThan(8);
  }, 60_000);
});

describe('attacks round 6: SIGTERM (and kill -9) under write load with --data-dir (and --store redis), then every key retried', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-round6-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  // A ready file of each start's own: a server stopped by the test before (SIGTERM, not awaited) removes its ready
  // file as it closes, which was the next start's when they shared one path (the start then waited 45 s in vain).
  let starts = 0;
  const start = async (data: string, storage = ['--data-dir', join(dir, data)]) => {
    const ready = join(dir, `ready-${++starts}.json`);
    rmSync(ready, { force: true });
    const child = spawn(
      process.execPath,
      [NCS_BIN, 'serve', '--port', '0', '--quiet', ...storage, '--ready-file', ready, '--rate-limit', 'off'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    children.push(child);
    // A start that never comes says why: the process's exit code and the end of what it wrote to stderr.
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    let exit: number | null | undefined;
    child.once('exit', (code) => {
      exit = code;
    });
    try {
      return { child, info: await waitForReadyFile(ready, { timeoutMs: TEST_START_TIMEOUT_MS }) };
    } catch (err) {
      throw new Error(
        `${(err as Error).message}; ncs serve ${exit === undefined ? 'still running' : `exited ${exit}`}: ${stderr}`,
      );
    }
  };

  /** 12 writers with ever new keys until `acks` are acknowledged, then `signal`; every key tried and the acknowledged ones. */
  const loadThenSignal = async (
    first: Awaited<ReturnType<typeof start>>,
    prefix: string,
    acks: number,
    signal: NodeJS.Signals,
  ) => {
    const h = headers(first.info.token, first.info.tenant);
    const acked = new Map<string, string>();
    const tried: string[] = [];
    let n = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const key = `${prefix}-${++n}`;
        tried.push(key);
        try {
          const r = await create(key, h, { ...CONNECTION, scopeLabel: key }, first.info.baseUrl);
          if (r.status === 200 && r.id) acked.set(key, r.id);
        } catch {
          return; // refused or cut: never acknowledged
        }
      }
    };
    const workers = Array.from({ length: 12 }, worker);
    await expect.poll(() => acked.size, { timeout: 20_000 }).toBeGreaterThanOrEqual(acks);
    const exited = new Promise<number | null>((r) => first.child.once('exit', r));
    first.child.kill(signal);
    const code = await exited;
    stop = true;
    await Promise.all(workers);
    return { code, acked, tried };
  };

  /** Every key tried sent again: acknowledged ones replay their connection, the others are created once. */
  const retryAll = async (
    second: Awaited<ReturnType<typeof start>>,
    tried: readonly string[],
    acked: ReadonlyMap<string, string>,
    ids: Set<string>,
  ) => {
    const h2 = headers(second.info.token, second.info.tenant);
    for (const key of tried) {
      const r = await create(key, h2, { ...CONNECTION, scopeLabel: key }, second.info.baseUrl);
      expect(r.status, key).toBe(200);
      if (acked.has(key)) {
        expect(r.id, key).toBe(acked.get(key));
        expect(r.replayed, key).toBe(true);
      }
      ids.add(r.id ?? '');
    }
    const list = await fetch(`${second.info.baseUrl}/api/public/v1/connections`, { headers: h2 });
    return ((await list.json()) as { data: { count: number } }).data.count;
  };

  it('SIGTERM: no key makes two connections; acknowledged ones replay', async () => {
    const first = await start('SIGTERM');
    const { code, acked, tried } = await loadThenSignal(first, 'round6-sigterm', 150, 'SIGTERM');
    expect(code).toBe(0);
    const second = await start('SIGTERM');
    const ids = new Set<string>();
    const count = await retryAll(second, tried, acked, ids);
    expect(ids.size).toBe(tried.length);
    expect(count).toBe(tried.length);
    second.child.kill('SIGTERM');
  }, 90_000);

  // kill -9 lands at any instant of a creation: the connection, its audit entry, its stream message and
  // its key's outcome are committed in one SQLite transaction, so after the restart every key tried has
  // exactly one connection. Before that fix a kill between the connection's commit and its key's left
  // a connection without its key (about one kill in ten): KILLS kills in one run made it fail in most runs.
  // Each round loads only until a few dozen creations are acknowledged: the kill lands while twelve writers
  // are mid-creation either way, and the kills' count is what makes the race likely (was 100 + 10 per round:
  // over half of the suite's most expensive file, for no more instants of a kill).
  const KILLS = 15;
  it(`SIGKILL, ${KILLS} times on one data dir: no key makes two connections; acknowledged ones replay`, async () => {
    const ids = new Set<string>();
    const allTried: string[] = [];
    let server = await start('SIGKILL');
    for (let round = 1; round <= KILLS; round++) {
      const { acked, tried } = await loadThenSignal(server, `round6-sigkill-${round}`, 30 + 5 * round, 'SIGKILL');
      allTried.push(...tried);
      server = await start('SIGKILL');
      const count = await retryAll(server, tried, acked, ids);
      expect(ids.size, `round ${round}`).toBe(allTried.length);
      expect(count, `round ${round}: connections for ${allTried.length} keys`).toBe(allTried.length);
    }
    server.child.kill('SIGTERM');
  }, 180_000);

  // The same on Redis: a replica's call claims its key and appends its operation to the log in one
  // script, and every replica derives the connection and the key's outcome from that one entry, so a
  // replica killed at any instant leaves both or neither (README "Shared sandbox").
  it.skipIf(!REDIS_SERVER)(
    'SIGKILL of a replica on --store redis, six times: no key makes two connections',
    async () => {
      const redis = await startRedis();
      try {
        const store = ['--store', `${redis.url}?prefix=round6-${randomBytes(6).toString('hex')}`];
        const ids = new Set<string>();
        const allTried: string[] = [];
        let server = await start('redis', store);
        for (let round = 1; round <= 6; round++) {
          const { acked, tried } = await loadThenSignal(server, `round6-redis-${round}`, 30 + 5 * round, 'SIGKILL');
          allTried.push(...tried);
          server = await start('redis', store);
          const count = await retryAll(server, tried, acked, ids);
          expect(ids.size, `round ${round}`).toBe(allTried.length);
          expect(count, `round ${round}: connections for ${allTried.length} keys`).toBe(allTried.length);
        }
        server.child.kill('SIGTERM');
      } finally {
        await redis.close();
      }
    },
    180_000,
  );
});
