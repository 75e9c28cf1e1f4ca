// The round-8 shared-sandbox attack files' setup: a private redis-server, two replicas of serve() in
// this process on it, a token of harbour-backend, redis-cli, and the checks those files share. Loopback only.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect } from 'vitest';
import { startRedis, type TestRedis } from '../redis-server.ts';
import { call, clientToken, type PlainReplica, startLocalReplica } from '../shared/replicas.ts';

export const HARBOUR = {
  id: 'harbour-backend',
  secret: 'hk-sandbox-secret-5f2c9a7e1b3d4c60',
  tenant: 'harbour-kitchens',
};
export const BODY = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'R8 Pier',
  capabilities: ['menu.read'],
};
export const STACK = /\n\s+at |node:internal|TypeError|ReplyError|ECONNREFUSED/;
let n = 0;
export const key = () => `r8-redis-${Date.now()}-${n++}`;

export interface Replicas {
  redis: TestRedis;
  a: PlainReplica;
  b: PlainReplica;
  token: string;
}

/** Starts Redis and two replicas before the file's tests, stops them after; `get()` hands them over. */
export function useReplicas() {
  let r: Replicas | undefined;
  beforeAll(async () => {
    const redis = await startRedis();
    const [a, b] = await Promise.all([startLocalReplica(redis.url), startLocalReplica(redis.url)]);
    r = { redis, a, b, token: await clientToken(a.info.baseUrl, HARBOUR.id, HARBOUR.secret) };
  }, 60_000);
  afterAll(async () => {
    await Promise.all([r?.a.stop(), r?.b.stop()]);
    await r?.redis.close();
  });
  const get = (): Replicas => {
    if (!r) throw new Error('replicas not started');
    return r;
  };
  return {
    get,
    cli: (...args: string[]) =>
      execFileSync('redis-cli', ['-p', String(get().redis.port), ...args], { encoding: 'utf8', maxBuffer: 64 << 20 }),
    on: (rep: PlainReplica, path: string, init: Parameters<typeof call>[4] = {}) =>
      call(rep.info.baseUrl, get().token, HARBOUR.tenant, path, init),
  };
}

/** An answer that is either success or the documented outage envelope, never a stack or a bare error. */
export function sane(r: { status: number; json: any }) {
  expect([200, 500, 503]).toContain(r.status);
  if (r.status !== 200) {
    expect(r.json.ok).toBe(false);
    expect(r.json.error.code).toBe('internal');
    expect(JSON.stringify(r.json)).not.toMatch(STACK);
  }
}

/** Polls `f` until it holds or `ms` pass. */
export async function until(f: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await f().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
