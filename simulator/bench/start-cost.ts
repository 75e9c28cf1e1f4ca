// Cold starts counted where the machine is loaded: CPU (from /proc) and wall time from spawn() until the
// first 200 of GET /api/public/v1, for one or more `ncs` entries started in turn, each start followed
// by a start of the bare baseline, so every entry has its floor measured in the same minute.
// Usage: npx node simulator/bench/start-cost.ts [--runs 7] [entry ...]
//   entry: a path to an ncs entry (default bin/ncs.mjs, what `npm run serve` runs), e.g. bin/ncs.ts, an older commit exported, or
//   an installed node_modules/ncs-sandbox/dist/cli/ncs.js; `label=path` names it in the output.
import { resolve } from 'node:path';
import { BASELINE_BIN, NCS_BIN, serveArgv } from './lib/processes.ts';
import { median, startUp } from './scenarios/cold-start.ts';

type Start = { wallMs: number; cpuMs: number };

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt === -1 ? 7 : Number(argv.splice(runsAt, 2)[1]);
const entries = (argv.length ? argv : [NCS_BIN]).map((a) => {
  const eq = a.indexOf('=');
  const [label, bin] = eq === -1 ? [a, a] : [a.slice(0, eq), a.slice(eq + 1)];
  return { label, bin: resolve(bin), sim: [] as Start[], bare: [] as Start[] };
});

for (let i = 0; i < runs; i++) {
  for (const { bin, sim, bare } of entries) {
    const serveArgs = (p: number) => serveArgv(bin, p);
    sim.push(await startUp(serveArgs, '/api/public/v1'));
    bare.push(await startUp((p) => [BASELINE_BIN, '--port', String(p)], '/'));
  }
}

const fmt = (xs: Start[]) => {
  const cpu = median(xs.map((x) => x.cpuMs));
  const wall = median(xs.map((x) => x.wallMs));
  return { cpu, wall, text: `CPU ${cpu.toFixed(0)} ms, wall ${wall.toFixed(0)} ms` };
};
for (const { label, sim, bare } of entries) {
  const s = fmt(sim);
  const b = fmt(bare);
  process.stdout.write(
    `${label}: ${s.text} | bare ${b.text} | ${(s.cpu / b.cpu).toFixed(2)}x CPU, ${(s.wall / b.wall).toFixed(2)}x wall (median of ${runs})\n`,
  );
}
