// Profiles the simulator under load: `ncs serve` runs with --cpu-prof while autocannon drives one
// request shape, then the profile is summarised by self time.
// Usage: node simulator/bench/profile.ts [providers|connections|replay|capabilities] [--seconds 8] [--top 30]
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from './lib/load.ts';
import { ROOT, startSimulator } from './lib/processes.ts';
import { requestSpecs, type RequestName } from './scenarios/requests.ts';
import { formatSummary, summariseProfile, type CpuProfile } from './profile-summary.ts';

const which = (process.argv[2] ?? 'providers') as RequestName;
const opt = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const dir = join(ROOT, 'simulator/bench/results/profiles');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const sim = await startSimulator({ nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] });
try {
  const specs = requestSpecs({ token: sim.token!, tenant: sim.tenant! });
  const spec = specs[which];
  if (!spec) throw new Error(`unknown request shape ${which}; one of ${Object.keys(specs).join(', ')}`);
  if (which === 'replay')
    await fetch(`${sim.baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers!, body: spec.body! });
  const stats = await runLoad(sim.baseUrl, spec, { connections: 50, seconds: opt('--seconds', 8), warmupSeconds: 0 });
  process.stdout.write(
    `${which}: ${stats.rps.toFixed(0)} req/s, p50 ${stats.p50} ms, p99 ${stats.p99} ms, non-2xx ${stats.non2xx}\n`,
  );
} finally {
  await sim.stop();
}
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no .cpuprofile written (the simulator did not exit cleanly)');
const rows = summariseProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
const text = `${formatSummary(rows, opt('--top', 30), 'self')}\n\n${formatSummary(
  rows.filter((r) => r.name.includes('simulator/')),
  opt('--top', 30),
  'total',
)}\n`;
writeFileSync(join(dir, `${which}.txt`), text);
process.stdout.write(text);
