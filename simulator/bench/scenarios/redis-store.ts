import { randomBytes } from 'node:crypto';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis } from '../lib/redis-server.ts';
import { ms, ratio, rps } from '../lib/format.ts';
import { type LoadStats, runLoad } from '../lib/load.ts';
import { type ServerProcess, startSimulator } from '../lib/processes.ts';
import type { BenchContext, Scenario, ScenarioResult } from '../lib/types.ts';
import { type RequestName, requestSpecs } from './requests.ts';

const REQUESTS = [
  ['providers', 'GET /providers'],
  ['connections', 'POST /connections (fresh keys)'],
] as const satisfies readonly (readonly [RequestName, string])[];

/** Load on one or several replicas at once (the connections split over them, like a load balancer would). */
async function load(ctx: BenchContext, sims: ServerProcess[], request: RequestName): Promise<LoadStats> {
  const first = sims[0];
  if (!first?.token || !first.tenant) throw new Error('the simulator wrote no token');
  const spec = requestSpecs({ token: first.token, tenant: first.tenant })[request];
  const connections = Math.max(1, Math.floor(ctx.config.connections / sims.length));
  const seconds = Math.max(1, ctx.config.seconds);
  const opts = { connections, seconds, warmupSeconds: ctx.config.warmupSeconds };
  const all = await Promise.all(sims.map((s) => runLoad(s.baseUrl, spec, opts)));
  const sum = (f: (s: LoadStats) => number) => all.reduce((n, s) => n + f(s), 0);
  return {
    rps: sum((s) => s.rps),
    p50: Math.max(...all.map((s) => s.p50)),
    p99: Math.max(...all.map((s) => s.p99)),
    p999: Math.max(...all.map((s) => s.p999)),
    requests: sum((s) => s.requests),
    seconds,
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    statusCodes: Object.assign({}, ...all.map((s) => s.statusCodes)),
  };
}

async function measure(
  ctx: BenchContext,
  store: 'memory' | 'redis-1' | 'redis-2',
  url: string | undefined,
  request: RequestName,
) {
  const extra = url ? ['--store', `${url}?prefix=bench-${randomBytes(4).toString('hex')}`] : [];
  const sims = [await startSimulator({ extra })];
  try {
    if (store === 'redis-2') sims.push(await startSimulator({ extra }));
    ctx.log(`    ${request} on ${store}`);
    return await load(ctx, sims, request);
  } finally {
    await Promise.all(sims.map((s) => s.stop()));
  }
}

/**
 * The shared store (issue 20): GET /providers and POST /connections on the memory store, on Redis with
 * one replica and with two replicas sharing the load, each a fresh `ncs serve` (a fresh key prefix).
 */
export const redisStoreScenario: Scenario = {
  id: 'redis-store',
  title: 'Shared store on Redis (one and two replicas) beside memory',
  measures:
    'req/s and p50/p99 of GET /providers and POST /connections with --store redis:// (one replica, two replicas splitting the connections) beside the memory store; test-started redis-server with appendonly yes, appendfsync everysec.',
  async run(ctx): Promise<ScenarioResult> {
    const base = { id: this.id, title: this.title };
    if (!REDIS_SERVER) return { ...base, status: 'not-available', reason: NO_REDIS_REASON, metrics: {} };
    // everysec: the durability the README recommends for a shared sandbox (always: see its table).
    const redis = await startRedis({ appendfsync: 'everysec' });
    try {
      const metrics: Record<string, number> = {};
      const rows: string[][] = [];
      let failed = '';
      for (const [request, label] of REQUESTS) {
        const memory = await measure(ctx, 'memory', undefined, request);
        const one = await measure(ctx, 'redis-1', redis.url, request);
        const two = await measure(ctx, 'redis-2', redis.url, request);
        for (const [name, s] of [
          ['memory', memory],
          ['redis1', one],
          ['redis2', two],
        ] as const) {
          metrics[`${request}_${name}_rps`] = s.rps;
          metrics[`${request}_${name}_p99`] = s.p99;
          if (s.non2xx || s.errors)
            failed += `${request} on ${name}: ${JSON.stringify(s.statusCodes)} with ${s.errors} errors; `;
        }
        metrics[`${request}_redis1_ratio`] = memory.rps ? one.rps / memory.rps : 0;
        metrics[`${request}_redis2_ratio`] = memory.rps ? two.rps / memory.rps : 0;
        rows.push([
          label,
          rps(memory.rps),
          `${rps(one.rps)} (${ratio(metrics[`${request}_redis1_ratio`] ?? 0)})`,
          `${rps(two.rps)} (${ratio(metrics[`${request}_redis2_ratio`] ?? 0)})`,
          `${ms(memory.p99)} / ${ms(one.p99)} / ${ms(two.p99)}`,
        ]);
      }
      return {
        ...base,
        status: failed ? 'failed' : 'ok',
        ...(failed ? { reason: failed } : {}),
        metrics,
        row: {
          result: `POST /connections on Redis: ${ratio(metrics.connections_redis1_ratio ?? 0)} of memory`,
        },
        details: {
          title: 'Shared store on Redis',
          header: ['request', 'memory', 'Redis, 1 replica', 'Redis, 2 replicas', 'p99 memory / 1 / 2'],
          rows,
        },
      };
    } finally {
      await redis.close();
    }
  },
};
