import { runLoad, type LoadSpec, type LoadStats } from './load.ts';
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
  sim: { baseUrl: string; spec: LoadSpec },
  base: { baseUrl: string; spec: LoadSpec },
  log: (line: string) => void,
): Promise<{ sim: LoadStats; base: LoadStats }> {
  const seconds = Math.max(1, Math.round(config.seconds / config.rounds));
  const simRuns: LoadStats[] = [];
  const baseRuns: LoadStats[] = [];
  for (let round = 0; round < config.rounds; round++) {
    const warmupSeconds = round === 0 ? config.warmupSeconds : 0;
    simRuns.push(await runLoad(sim.baseUrl, sim.spec, { connections: config.connections, seconds, warmupSeconds }));
    baseRuns.push(await runLoad(base.baseUrl, base.spec, { connections: config.connections, seconds, warmupSeconds }));
    log(`    round ${round + 1}/${config.rounds}: simulator ${simRuns.at(-1)!.rps.toFixed(0)} req/s, baseline ${baseRuns.at(-1)!.rps.toFixed(0)} req/s`);
  }
  return { sim: foldRuns(simRuns), base: foldRuns(baseRuns) };
}
