// `npm run bench`: the simulator against a bare node:http baseline, scenario by scenario.
// Flags: --quick (smoke run), --strict (exit 1 on a missed target), --only id,id (some scenarios).
// Environment: BENCH_DURATION (seconds per side, default 8), BENCH_CONNECTIONS (50),
// BENCH_ROUNDS (2), BENCH_WARMUP (2), BENCH_SSE_SUBSCRIBERS (10000), BENCH_SERVE_ARGS (extra
// `ncs serve` flags, e.g. to switch a rate limit off).
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT, startBaseline, type ServerProcess } from './lib/processes.ts';
import type { BenchConfig, BenchContext, ScenarioResult } from './lib/types.ts';
import { describeMachine, machineLine, writeReport, type BenchReport } from './report.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { evaluateTargets } from './targets.ts';

function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not ${JSON.stringify(v)}`);
  return n;
}

/** Flags and environment -> settings. */
export function configFrom(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const quick = argv.includes('--quick');
  const i = argv.indexOf('--only');
  const only = i === -1 ? [] : (argv[i + 1] ?? '').split(',').filter(Boolean);
  const unknown = only.filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown.length)
    throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  return {
    quick,
    strict: argv.includes('--strict'),
    seconds: envNumber(env, 'BENCH_DURATION', quick ? 2 : 8),
    warmupSeconds: envNumber(env, 'BENCH_WARMUP', quick ? 1 : 2),
    rounds: Math.round(envNumber(env, 'BENCH_ROUNDS', quick ? 1 : 2)),
    connections: Math.round(envNumber(env, 'BENCH_CONNECTIONS', 50)),
    sseSubscribers: Math.round(envNumber(env, 'BENCH_SSE_SUBSCRIBERS', quick ? 1_000 : 10_000)),
    only,
    resultsDir: join(ROOT, 'simulator/bench/results'),
  };
}

async function main() {
  const config = configFrom(process.argv.slice(2));
  const machine = describeMachine();
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(`ncs-sandbox bench${config.quick ? ' (quick)' : ''}`);
  log(`machine: ${machineLine(machine)}`);
  if (machine.loadAverageStart > machine.cpus * 0.5)
    log(
      `note: the machine is already busy (load ${machine.loadAverageStart.toFixed(2)} on ${machine.cpus} cores): expect noisy numbers`,
    );
  const started = performance.now();
  let baseline: Promise<ServerProcess> | undefined;
  const ctx: BenchContext = { config, log, baseline: () => (baseline ??= startBaseline()) };
  const results: ScenarioResult[] = [];
  const selected = SCENARIOS.filter((s) => !config.only.length || config.only.includes(s.id));
  try {
    for (const scenario of selected) {
      log(`\n${scenario.title}: ${scenario.measures}`);
      let result: ScenarioResult;
      try {
        result = await scenario.run(ctx);
      } catch (err) {
        result = {
          id: scenario.id,
          title: scenario.title,
          status: 'failed',
          reason: (err as Error).message,
          metrics: {},
        };
      }
      results.push(result);
      if (result.status === 'not-available') log(`  not available: ${result.reason}`);
      else {
        const r = result.row;
        log(
          `  ${result.status === 'failed' ? `FAILED: ${result.reason}\n  ` : ''}${[r?.result, r?.baseline && `baseline ${r.baseline}`, r?.ratio && `ratio ${r.ratio}`, r?.latency && `p50/p99 ${r.latency}`, r?.cpu && `CPU/request ${r.cpu}`, r?.memory].filter(Boolean).join('; ')}`,
        );
      }
    }
  } finally {
    if (baseline) await (await baseline).stop();
  }
  machine.loadAverageEnd = loadavg()[0]!;
  const targets = evaluateTargets(results).filter(
    (v) => !config.only.length || config.only.includes(v.target.scenario),
  );
  log('\ntargets:');
  for (const v of targets) {
    const measured = v.measured === undefined ? '' : ` ${v.measured.toFixed(2)} ${v.target.op} ${v.limit?.toFixed(2)}`;
    log(`  ${v.verdict.padEnd(4)} ${v.target.description}${measured}${v.why ? ` (${v.why})` : ''}`);
  }
  const { resultsDir, ...shown } = config;
  const report: BenchReport = {
    startedAt: new Date(Date.now() - (performance.now() - started)).toISOString(),
    seconds: (performance.now() - started) / 1000,
    machine,
    config: shown,
    scenarios: results,
    targets,
  };
  const dir = config.quick || config.only.length ? join(resultsDir, 'partial') : resultsDir;
  const files = writeReport(report, dir);
  log(`\nmachine: ${machineLine(machine)}`);
  log(`wrote ${files.json} and ${files.md}`);
  const missed = targets.filter((v) => v.verdict === 'FAIL').length;
  if (config.strict && missed) {
    log(`--strict: ${missed} target(s) missed`);
    process.exit(1);
  }
  process.exit(0);
}

if (import.meta.main) {
  main().catch((err: unknown) => {
    process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  });
}
