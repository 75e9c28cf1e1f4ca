import { runLoad, type LoadSpec, type LoadOptions, type LoadStats } from './load.ts';
import { procCpuSeconds } from './processes.ts';
import type { BenchConfig } from './types.ts';

/** Several runs of one side folded into one: req/s over all requests, mean p50/p99, worst p99.9. */
export function foldRuns(runs: LoadStats[]): LoadStats {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const mean = (f: (r: LoadStats) => number) => runs.reduce((n, r) => n + f(r), 0) / runs.length;
  const statusCodes: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.statusCodes)) statusCodes[k] = (statusCodes[k] ?? 0) + v;
  return {
    rps: seconds ? requests / seconds : 0,
    p50: mean((r) => r.p50),
    p99: mean((r) => r.p99),
    p999: Math.max(...runs.map((r) => r.p999)),
    requests,
    seconds,
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    statusCodes,
  };
}

/**
 * Drives the simulator and the baseline with the same load generator in alternating rounds
 * (sim, baseline, sim, baseline, ...), so a neighbour's burst on a shared machine lands on both
 * sides instead of skewing the ratio. Each side gets one warm-up before its first round.
 */
export async function alternate(
  config: BenchConfig,
  sim: Side,
  base: Side,
  log: (line: string) => void,
): Promise<{ sim: LoadStats; base: LoadStats; simCpu: number; baseCpu: number }> {
  const seconds = Math.max(1, Math.round(config.seconds / config.rounds));
  const simRuns: Measured[] = [];
  const baseRuns: Measured[] = [];
  for (let round = 0; round < config.rounds; round++) {
    const opts = { connections: config.connections, seconds, warmupSeconds: round === 0 ? config.warmupSeconds : 0 };
    simRuns.push(await measured(sim, opts));
    baseRuns.push(await measured(base, opts));
    const [s, b] = [simRuns.at(-1)!, baseRuns.at(-1)!];
    log(
      `    round ${round + 1}/${config.rounds}: simulator ${s.stats.rps.toFixed(0)} req/s at ${(s.cpu * 100).toFixed(0)}% CPU, baseline ${b.stats.rps.toFixed(0)} req/s at ${(b.cpu * 100).toFixed(0)}% CPU`,
    );
  }
  const cpu = (runs: Measured[]) => runs.reduce((n, r) => n + r.cpu, 0) / runs.length;
  return {
    sim: foldRuns(simRuns.map((r) => r.stats)),
    base: foldRuns(baseRuns.map((r) => r.stats)),
    simCpu: cpu(simRuns),
    baseCpu: cpu(baseRuns),
  };
}

interface Side {
  baseUrl: string;
  spec: LoadSpec;
  /** The server's process id, to read how busy it was (a server below ~90 % CPU was not the limit). */
  pid: number;
}
interface Measured {
  stats: LoadStats;
  /** Server CPU time over the measured run's wall time (1 = one core fully used). */
  cpu: number;
}

async function measured(side: Side, opts: LoadOptions): Promise<Measured> {
  if (opts.warmupSeconds > 0)
    await runLoad(side.baseUrl, side.spec, { ...opts, seconds: opts.warmupSeconds, warmupSeconds: 0 });
  const cpu0 = procCpuSeconds(side.pid) ?? 0;
  const t0 = performance.now();
  const stats = await runLoad(side.baseUrl, side.spec, { ...opts, warmupSeconds: 0 });
  const cpu = ((procCpuSeconds(side.pid) ?? 0) - cpu0) / ((performance.now() - t0) / 1000);
  return { stats, cpu };
}
