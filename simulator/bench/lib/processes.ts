import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// What `npm run serve` starts (bin/ncs.ts loads the same program after Node's TypeScript stripper).
export const NCS_BIN = join(ROOT, 'bin/ncs.mjs');
export const BASELINE_BIN = join(ROOT, 'simulator/bench/baseline-server.ts');

/**
 * The Node flags before `bin/ncs.mjs` in a package.json script (`node <flags> bin/ncs.mjs serve`).
 * @example serveNodeArgs('node --max-semi-space-size=8 bin/ncs.mjs serve') // ['--max-semi-space-size=8']
 */
export function serveNodeArgs(script: string): string[] {
  const words = script.trim().split(/\s+/);
  const at = words.indexOf('bin/ncs.mjs');
  if (words[0] !== 'node' || at < 1) throw new Error(`not a "node <flags> bin/ncs.mjs ..." script: ${script}`);
  return words.slice(1, at);
}

/**
 * The Node flags `npm run serve` starts the simulator with, read from package.json (never restated): the
 * bench starts the source simulator exactly as a clone user does. See README "Memory bounds" for why.
 */
export const SERVE_NODE_ARGS = serveNodeArgs(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { serve: string } }).scripts.serve,
);

/** A server under test in its own process, so it never shares an event loop with the load generator. */
export interface ServerProcess {
  baseUrl: string;
  /** The alternate base URL (`ncs serve --alt-port 0`). */
  altBaseUrl?: string;
  /** Ready token and tenant of the simulator (absent for the baseline). */
  token?: string;
  tenant?: string;
  adminToken?: string;
  pid: number;
  child: ChildProcess;
  /** Resident set size now and at its peak (bytes, from /proc; undefined where /proc is missing). */
  rss(): number | undefined;
  peakRss(): number | undefined;
  stop(): Promise<void>;
}

/** VmRSS or VmHWM of a process in bytes (Linux /proc). */
export function procMemory(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far (Linux /proc; clock ticks of 1/100 s). */
export function procCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Starts `node <script> <args> --ready-file <tmp>` and waits (bounded) until it wrote the ready file.
 * @example const sim = await startProcess(NCS_BIN, ['serve', '--port', '0', '--quiet']);
 */
export async function startProcess(
  script: string,
  args: string[],
  opts: { nodeArgs?: string[]; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-bench-'));
  const readyFile = join(dir, 'ready.json');
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), script, ...args, '--ready-file', readyFile], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...opts.env },
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    if (stderr.length < 8000) stderr += c.toString();
  });
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  let ready: Record<string, string> | undefined;
  while (Date.now() < deadline && child.exitCode === null) {
    if (existsSync(readyFile)) {
      try {
        ready = JSON.parse(readFileSync(readyFile, 'utf8'));
        break;
      } catch {
        /* half-written: read again */
      }
    }
    await sleep(10);
  }
  if (!ready) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${script} did not become ready: ${stderr.trim().slice(0, 2000) || `exit ${child.exitCode}`}`);
  }
  const pid = child.pid!;
  return {
    baseUrl: ready.baseUrl!,
    ...(ready.altBaseUrl ? { altBaseUrl: ready.altBaseUrl } : {}),
    ...(ready.token ? { token: ready.token, tenant: ready.tenant!, adminToken: ready.adminToken! } : {}),
    pid,
    child,
    rss: () => procMemory(pid, 'VmRSS'),
    peakRss: () => procMemory(pid, 'VmHWM'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5000)]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Extra `ncs serve` flags for every simulator the bench starts (env BENCH_SERVE_ARGS, space-separated). */
export const SERVE_ARGS = (process.env.BENCH_SERVE_ARGS ?? '').split(/\s+/).filter(Boolean);

/**
 * The node argv of `ncs serve` on a loopback port, quiet: the source entry with the Node flags of `npm run
 * serve`, an installed copy as `npx ncs serve` starts it (no flags).
 * @example spawn(process.execPath, serveArgv(NCS_BIN, 4010, ['--fixtures', file]))
 */
export function serveArgv(bin: string, port: number, extra: string[] = []): string[] {
  return [
    ...(bin === NCS_BIN ? SERVE_NODE_ARGS : []),
    bin,
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--quiet',
    ...SERVE_ARGS,
    ...extra,
  ];
}

/**
 * `ncs serve` on a free loopback port, quiet. Load scenarios switch the rate limit off (one access
 * sends tens of thousands of calls a second; the default 600 per minute would answer 429);
 * `keepRateLimit` keeps the simulator's defaults (the conformance kit checks the rate limit too).
 */
export function startSimulator(
  opts: { extra?: string[]; nodeArgs?: string[]; keepRateLimit?: boolean } = {},
): Promise<ServerProcess> {
  const rate = opts.keepRateLimit ? [] : ['--rate-limit', 'off'];
  return startProcess(
    NCS_BIN,
    ['serve', '--host', '127.0.0.1', '--port', '0', '--quiet', ...rate, ...SERVE_ARGS, ...(opts.extra ?? [])],
    { nodeArgs: [...SERVE_NODE_ARGS, ...(opts.nodeArgs ?? [])] },
  );
}

export function startBaseline(extra: string[] = []): Promise<ServerProcess> {
  return startProcess(BASELINE_BIN, ['--port', '0', ...extra]);
}
