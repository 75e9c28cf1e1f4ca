import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPacked } from '../../package/scratch-install.ts';
import { ms } from '../lib/format.ts';
import { ROOT } from '../lib/processes.ts';
import type { Scenario, ScenarioResult } from '../lib/types.ts';
import { median, startsBesideBaseline } from './cold-start.ts';

/** `npm pack` of this repository (prepack builds dist/) into `dir`: the tarball's path and sizes. */
function pack(dir: string): { file: string; bytes: number; unpackedBytes: number; files: number } {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' });
  const [p] = JSON.parse(out) as { filename: string; size: number; unpackedSize: number; entryCount: number }[];
  if (!p) throw new Error(`npm pack printed no package: ${out.slice(0, 200)}`);
  return { file: join(dir, p.filename), bytes: p.size, unpackedBytes: p.unpackedSize, files: p.entryCount };
}

export const installedPackageScenario: Scenario = {
  id: 'installed-package',
  title: 'The installed package',
  measures:
    'Packs the tarball, installs it into an empty project (`npm install -D`), then spawns its `ncs serve` bin until GET /api/public/v1 answers 200 (median of several starts, each beside a start of the bare baseline); and the tarball size.',
  async run(ctx): Promise<ScenarioResult> {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-bench-installed-'));
    try {
      const tarball = pack(dir);
      const project = join(dir, 'project');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), '{"name":"bench-consumer","private":true,"type":"module"}\n');
      const { pinned } = installPacked(project, [tarball.file], process.env);
      const bin = join(project, 'node_modules/ncs-sandbox/dist/cli/ncs.js');
      const runs = ctx.config.quick ? 3 : 7;
      const { sim: starts, bare } = await startsBesideBaseline(bin, runs);
      const wall = starts.map((s) => s.wallMs);
      const metrics = {
        coldStartMs: median(wall),
        coldStartMinMs: Math.min(...wall),
        coldStartMaxMs: Math.max(...wall),
        coldStartCpuMs: median(starts.map((s) => s.cpuMs)),
        baselineMs: median(bare.map((b) => b.wallMs)),
        tarballMb: tarball.bytes / 1_000_000,
        unpackedMb: tarball.unpackedBytes / 1_000_000,
        files: tarball.files,
        runs,
      };
      return {
        id: this.id,
        title: this.title,
        status: 'ok',
        metrics,
        row: {
          result: `${ms(metrics.coldStartMs)} to first answer (min ${ms(metrics.coldStartMinMs)}, max ${ms(metrics.coldStartMaxMs)}; ${ms(metrics.coldStartCpuMs)} CPU); tarball ${(tarball.bytes / 1024).toFixed(0)} KB (${tarball.files} files, ${(tarball.unpackedBytes / 1024).toFixed(0)} KB unpacked)`,
          baseline: `${ms(metrics.baselineMs)} (bare node:http server)`,
          ratio: `${(metrics.coldStartMs / metrics.baselineMs).toFixed(2)}x`,
        },
        notes: [
          `median of ${runs} starts of node_modules/ncs-sandbox/dist/cli/ncs.js (the first start fills Node's compile cache)`,
          ...(pinned ? [pinned] : []),
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
