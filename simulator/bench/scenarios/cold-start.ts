import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ms } from '../lib/format.ts';
import { BASELINE_BIN, NCS_BIN, procCpuSeconds, ROOT, serveArgv } from '../lib/processes.ts';
import type { Scenario, ScenarioResult } from '../lib/types.ts';
import { ensureSourcePackage } from '../../package/source-package-build.ts';

const TIMEOUT_MS = 15_000;

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

function answers(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = get(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(undefined));
    req.setTimeout(1000, () => req.destroy());
  });
}

/**
 * Milliseconds from spawn() until GET `path` answers 200 (polled every 2 ms), bounded by TIMEOUT_MS;
 * `cpuMs` is the CPU time the process used by then (10 ms resolution), which a busy machine
 * inflates far less than the wall time.
 */
export async function startUp(
  args: (port: number) => string[],
  path: string,
): Promise<{ wallMs: number; cpuMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args(port), { cwd: ROOT, stdio: 'ignore' });
  try {
    while (performance.now() - started < TIMEOUT_MS) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before answering`);
      if ((await answers(`http://127.0.0.1:${port}${path}`)) === 200) {
        const wallMs = performance.now() - started;
        return { wallMs, cpuMs: (procCpuSeconds(child.pid!) ?? Number.NaN) * 1000 };
      }
      await sleep(2);
    }
    throw new Error(`no answer within ${TIMEOUT_MS} ms`);
  } finally {
    child.kill('SIGKILL');
  }
}

/** Milliseconds from spawn() until `node -e 0` exits: what any Node process costs before user code. */
async function nodeFloor(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return performance.now() - started;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

type Start = { wallMs: number; cpuMs: number };

/**
 * `runs` starts of `ncs serve` from `bin` (the source or an installed copy), each followed by a start
 * of the bare baseline: on a shared machine the ratio holds when the milliseconds do not.
 * @example const { sim, bare } = await startsBesideBaseline(NCS_BIN, 7);
 */
export async function startsBesideBaseline(
  bin: string,
  runs: number,
  between?: () => Promise<void>,
): Promise<{ sim: Start[]; bare: Start[] }> {
  const sim: Start[] = [];
  const bare: Start[] = [];
  for (let i = 0; i < runs; i++) {
    sim.push(await startUp((p) => serveArgv(bin, p), '/api/public/v1'));
    bare.push(await startUp((p) => [BASELINE_BIN, '--port', String(p)], '/'));
    await between?.();
  }
  return { sim, bare };
}

export const coldStartScenario: Scenario = {
  id: 'cold-start',
  title: 'Cold start of ncs serve',
  measures:
    "From spawning `node <flags> bin/ncs.mjs serve` (what `npm run serve` runs, with its Node flags) until GET /api/public/v1 answers 200, median of several starts; beside it the bare node:http baseline and `node -e 0`. The bundle of the current sources is built into the user's cache first, and started once unmeasured (its code cache written), so every start measured runs it as every start of a clone after its first does (simulator/package/source-package.js, bundle-runner.js); with NCS_FROM_SOURCES=1 the TypeScript sources.",
  async run(ctx): Promise<ScenarioResult> {
    const runs = ctx.config.quick ? 3 : 7;
    const fromSources = Boolean(process.env.NCS_FROM_SOURCES && process.env.NCS_FROM_SOURCES !== '0');
    // A miss would run the sources once and build the bundle beside the starts that follow.
    const bundle = fromSources ? undefined : await ensureSourcePackage(ROOT);
    const started = bundle ? 'the cached bundle of the sources' : 'the TypeScript sources';
    // The first start of a new bundle writes its code cache (simulator/package/bundle-runner.js), and the
    // first from source fills Node's compile cache: not measured, as no start of a clone after it pays that.
    await startUp((p) => serveArgv(NCS_BIN, p), '/api/public/v1');
    const node: number[] = [];
    const { sim, bare } = await startsBesideBaseline(NCS_BIN, runs, async () => {
      node.push(await nodeFloor());
    });
    const wall = sim.map((x) => x.wallMs);
    const metrics = {
      simulatorMs: median(wall),
      simulatorMinMs: Math.min(...wall),
      simulatorMaxMs: Math.max(...wall),
      simulatorCpuMs: median(sim.map((x) => x.cpuMs)),
      baselineMs: median(bare.map((x) => x.wallMs)),
      baselineCpuMs: median(bare.map((x) => x.cpuMs)),
      nodeMs: median(node),
      runs,
    };
    return {
      id: this.id,
      title: this.title,
      status: 'ok',
      metrics,
      row: {
        result: `${ms(metrics.simulatorMs)} (min ${ms(metrics.simulatorMinMs)}, max ${ms(metrics.simulatorMaxMs)}; ${ms(metrics.simulatorCpuMs)} CPU)`,
        baseline: `${ms(metrics.baselineMs)} (${ms(metrics.baselineCpuMs)} CPU; node -e 0: ${ms(metrics.nodeMs)})`,
        ratio: `${(metrics.simulatorMs / metrics.baselineMs).toFixed(2)}x`,
      },
      notes: [`median of ${runs} starts each; bin/ncs.mjs ran ${started}`],
    };
  },
};
