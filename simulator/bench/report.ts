import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BenchConfig, Machine, ScenarioResult } from './lib/types.ts';
import type { TargetVerdict } from './targets.ts';

export interface BenchReport {
  startedAt: string;
  seconds: number;
  machine: Machine;
  config: Omit<BenchConfig, 'resultsDir'>;
  scenarios: ScenarioResult[];
  targets: TargetVerdict[];
}

/** Cores, CPU model, Node version and the load others put on the machine right now. */
export function describeMachine(): Machine {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    totalMemoryMb: Math.round(totalmem() / 1024 / 1024),
    loadAverageStart: loadavg()[0]!,
  };
}

export function machineLine(m: Machine): string {
  const load =
    m.loadAverageEnd !== undefined
      ? `${m.loadAverageStart.toFixed(2)} at the start, ${m.loadAverageEnd.toFixed(2)} at the end`
      : m.loadAverageStart.toFixed(2);
  return `${m.cpus} cores (${m.cpuModel}), Node ${m.node}, ${m.platform}, ${(m.totalMemoryMb / 1024).toFixed(1)} GB RAM; 1-minute load average ${load}`;
}

const cell = (s: string | undefined) => (s ?? '').replace(/\|/g, '\\|');

function fmt(n: number | undefined): string {
  if (n === undefined) return '';
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
}

/** The Markdown report: machine, settings, one row per scenario, the targets, the detail tables. */
export function toMarkdown(r: BenchReport): string {
  const c = r.config;
  const lines = [
    '# ncs-sandbox benchmark',
    '',
    `- Machine: ${machineLine(r.machine)}`,
    `- Load: autocannon, ${c.connections} connections, ${c.seconds} s per side in ${c.rounds} alternating simulator/baseline rounds after a ${c.warmupSeconds} s warm-up${c.quick ? ' (quick smoke run: numbers are indicative only)' : ''}`,
    `- Run: ${r.startedAt}, ${r.seconds.toFixed(0)} s in all`,
    '',
    '| Scenario | Simulator | Baseline | Ratio | Latency p50 / p99 | Server CPU per request | Memory |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const s of r.scenarios) {
    if (s.status === 'not-available') lines.push(`| ${cell(s.title)} | not available: ${cell(s.reason)} | | | | | |`);
    else {
      const failed = s.status === 'failed' ? `FAILED (${s.reason}) ` : '';
      lines.push(
        `| ${cell(s.title)} | ${cell(failed + (s.row?.result ?? ''))} | ${cell(s.row?.baseline)} | ${cell(s.row?.ratio)} | ${cell(s.row?.latency)} | ${cell(s.row?.cpu)} | ${cell(s.row?.memory)} |`,
      );
    }
  }
  lines.push('', '## Targets', '', '| Target | Measured | Limit | Verdict |', '|---|---|---|---|');
  for (const v of r.targets) {
    const limit = v.limit ?? v.target.limit;
    lines.push(
      `| ${cell(v.target.description)} | ${fmt(v.measured)} | ${v.target.op} ${typeof limit === 'number' ? fmt(limit) : `its ${limit}`} | ${v.verdict}${v.why ? ` (${cell(v.why)})` : ''} |`,
    );
  }
  for (const s of r.scenarios) {
    if (!s.details) continue;
    lines.push(
      '',
      `## ${s.details.title}`,
      '',
      `| ${s.details.header.join(' | ')} |`,
      `|${s.details.header.map(() => '---').join('|')}|`,
    );
    for (const row of s.details.rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  }
  const notes = r.scenarios.flatMap((s) => (s.notes ?? []).map((n) => `- ${s.title}: ${n}`));
  if (notes.length) lines.push('', '## Notes', '', ...notes);
  return `${lines.join('\n')}\n`;
}

/** Writes latest.json and latest.md into the results folder; returns their paths. */
export function writeReport(r: BenchReport, dir: string): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'latest.json');
  const md = join(dir, 'latest.md');
  writeFileSync(
    json,
    `${JSON.stringify(r, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2)}\n`,
  );
  writeFileSync(md, toMarkdown(r));
  return { json, md };
}

// `node simulator/bench/report.ts <latest.json>` renders the Markdown of a recorded run again.
if (import.meta.main && process.argv[2]) {
  const file = process.argv[2];
  const report = JSON.parse(readFileSync(file, 'utf8'), (_k, v) => (v === 'Infinity' ? Infinity : v)) as BenchReport;
  writeFileSync(file.replace(/\.json$/, '.md'), toMarkdown(report));
}
