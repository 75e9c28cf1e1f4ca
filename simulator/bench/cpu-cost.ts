// Server CPU per request, counted rather than timed: the wall clock is noise on a loaded machine,
// but the CPU a process spends on a fixed number of requests moves far less. Starts the simulator
// and the bare baseline in turn, sends exactly N requests of one shape to each (after a warm-up),
// waits for deferred work (the activation 2 s after a connection is created), and reads the server's
// user + system CPU from /proc before and after.
// Usage: npx node simulator/bench/cpu-cost.ts [connections|providers|...] [--requests 20000] [--rounds 3]
import { setTimeout as sleep } from 'node:timers/promises';
import { sendAmount } from './lib/load.ts';
import { procCpuSeconds, startBaseline, startSimulator, type ServerProcess } from './lib/processes.ts';
import { requestSpecs, type RequestName } from './scenarios/requests.ts';

const which = (process.argv[2] ?? 'connections') as RequestName;
const opt = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const requests = opt('--requests', 20_000);
const rounds = opt('--rounds', 3);
const settleMs = opt('--settle-ms', 2500);

/** µs of server CPU per request over `requests` requests (warm-up excluded). */
async function measure(server: ServerProcess): Promise<number> {
  const specs = requestSpecs({ token: server.token ?? 'baseline', tenant: server.tenant ?? 'baseline' });
  const spec = specs[which];
  if (!spec) throw new Error(`unknown request shape ${which}`);
  await sendAmount(server.baseUrl, spec, Math.min(5000, requests), 20);
  await sleep(settleMs);
  const before = procCpuSeconds(server.pid)!;
  const ok = await sendAmount(server.baseUrl, spec, requests, 20);
  if (ok < requests * 0.99) throw new Error(`only ${ok} of ${requests} answered 2xx`);
  await sleep(settleMs);
  return ((procCpuSeconds(server.pid)! - before) / requests) * 1e6;
}

const sim: number[] = [];
const base: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (const [start, into] of [
    [startSimulator, sim],
    [startBaseline, base],
  ] as const) {
    const server = await start();
    try {
      into.push(await measure(server));
    } finally {
      await server.stop();
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
process.stdout.write(
  `${which}: ${requests} requests x ${rounds} rounds\n` +
    `simulator µs CPU/request: median ${median(sim).toFixed(1)} (${fmt(sim)})\n` +
    `baseline  µs CPU/request: median ${median(base).toFixed(1)} (${fmt(base)})\n` +
    `ratio (baseline/simulator CPU): ${(median(base) / median(sim)).toFixed(2)}x\n`,
);
