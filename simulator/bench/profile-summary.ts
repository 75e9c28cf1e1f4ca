// Summarises a V8 .cpuprofile (node --cpu-prof) by self time and by total (inclusive) time.
// Usage: node simulator/bench/profile-summary.ts <file.cpuprofile> [--top 25] [--filter simulator/]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface FunctionTime {
  /** `name file:line`, e.g. `matchOperation node_modules/openapi-backend/router.js:96`. */
  name: string;
  selfMs: number;
  totalMs: number;
  selfPct: number;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function label(f: CallFrame): string {
  const name = f.functionName || '(anonymous)';
  if (!f.url) return name;
  const file = f.url.startsWith('file://') ? relative(ROOT, fileURLToPath(f.url)) : f.url;
  return `${name} ${file}:${f.lineNumber + 1}`;
}

/**
 * Self and total milliseconds per function (same name, file and line merged), largest self first.
 * Total time counts a function once per sample even when it recurses.
 * @example summariseProfile(JSON.parse(readFileSync('CPU.cpuprofile', 'utf8'))).slice(0, 10)
 */
export function summariseProfile(profile: CpuProfile): FunctionTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    all += dt;
    const node = byId.get(id);
    if (!node) return;
    const key = label(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = label(byId.get(cur)!.callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  });
  return [...total.keys()]
    .map((name) => ({
      name,
      selfMs: self.get(name) ?? 0,
      totalMs: total.get(name)!,
      selfPct: all ? ((self.get(name) ?? 0) / all) * 100 : 0,
    }))
    .sort((a, b) => b.selfMs - a.selfMs);
}

/** A plain-text table of the top functions. */
export function formatSummary(rows: FunctionTime[], top: number, by: 'self' | 'total' = 'self'): string {
  const sorted = by === 'self' ? rows : [...rows].sort((a, b) => b.totalMs - a.totalMs);
  const lines = sorted
    .slice(0, top)
    .map(
      (r) =>
        `${r.selfMs.toFixed(0).padStart(8)} ${r.selfPct.toFixed(1).padStart(5)}% ${r.totalMs.toFixed(0).padStart(8)}  ${r.name}`,
    );
  return [`  self ms  self%  total ms  function (by ${by} time)`, ...lines].join('\n');
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write(
      'usage: node simulator/bench/profile-summary.ts <file.cpuprofile> [--top N] [--filter text]\n',
    );
    process.exit(2);
  }
  const opt = (name: string) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? undefined : process.argv[i + 1];
  };
  const top = Number(opt('--top') ?? 25);
  const filter = opt('--filter');
  let rows = summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  if (filter) rows = rows.filter((r) => r.name.includes(filter));
  process.stdout.write(`${formatSummary(rows, top, 'self')}\n\n${formatSummary(rows, top, 'total')}\n`);
}
