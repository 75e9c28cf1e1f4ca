// CPU per request of the shared store (issue 20), counted rather than timed: on the shared machine the
// wall clock is noise, the CPU a process spends on a fixed number of requests far less. Starts one
// redis-server (appendfsync everysec, like the redis-store scenario), then in turn `ncs serve` on the
// memory store and with --store on that Redis (fresh key prefix each), sends N requests of one shape
// after a warm-up, and reads user + system CPU of the simulator and of redis-server from /proc.
// Usage: npx node simulator/bench/redis-cpu-cost.ts [connections|providers] [--requests 5000] [--rounds 3]
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sendAmount } from './lib/load.ts';
import { procCpuSeconds, startSimulator, type ServerProcess } from './lib/processes.ts';
import { startRedis } from './lib/redis-server.ts';
import { requestSpecs, type RequestName } from './scenarios/requests.ts';

const which = (process.argv[2] ?? 'connections') as RequestName;
const opt = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const requests = opt('--requests', 5000);
const rounds = opt('--rounds', 3);
const settleMs = opt('--settle-ms', 2500);

const redis = await startRedis({ appendfsync: 'everysec' });
const cpu = (pid: number | undefined) => (pid === undefined ? 0 : (procCpuSeconds(pid) ?? 0));

/** µs of CPU per request of the simulator and of redis-server over `requests` requests. */
async function measure(server: ServerProcess): Promise<{ sim: number; redis: number }> {
  if (!server.token || !server.tenant) throw new Error('the simulator wrote no token');
  const spec = requestSpecs({ token: server.token, tenant: server.tenant })[which];
  await sendAmount(server.baseUrl, spec, Math.min(2000, requests), 20);
  await sleep(settleMs);
  const before = { sim: cpu(server.pid), redis: cpu(redis.pid()) };
  const ok = await sendAmount(server.baseUrl, spec, requests, 20);
  if (ok < requests * 0.99) throw new Error(`only ${ok} of ${requests} answered 2xx`);
  await sleep(settleMs);
  return {
    sim: ((cpu(server.pid) - before.sim) / requests) * 1e6,
    redis: ((cpu(redis.pid()) - before.redis) / requests) * 1e6,
  };
}

const runs: Record<'memory' | 'redis', { sim: number; redis: number }[]> = { memory: [], redis: [] };
try {
  for (let r = 0; r < rounds; r++) {
    for (const store of ['memory', 'redis'] as const) {
      const extra = store === 'redis' ? ['--store', `${redis.url}?prefix=cost-${randomBytes(4).toString('hex')}`] : [];
      const server = await startSimulator({ extra });
      try {
        runs[store].push(await measure(server));
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  await redis.close();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const line = (store: 'memory' | 'redis') => {
  const sim = median(runs[store].map((x) => x.sim));
  const total = median(runs[store].map((x) => x.sim + x.redis));
  return { sim, total, text: `${store}: simulator ${sim.toFixed(0)} µs, with redis-server ${total.toFixed(0)} µs` };
};
const m = line('memory');
const r = line('redis');
process.stdout.write(
  `${which}: ${requests} requests x ${rounds} rounds, µs CPU per request (median)\n${m.text}\n${r.text}\n` +
    `memory/redis: ${(m.sim / r.sim).toFixed(2)}x (simulator CPU), ${(m.total / r.total).toFixed(2)}x (simulator + redis-server)\n`,
);
