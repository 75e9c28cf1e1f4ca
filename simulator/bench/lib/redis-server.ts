// A private redis-server on a free loopback port with its own temporary directory, started and
// stopped by a test or a benchmark (CI installs Debian's redis-server; .ci/run). The shared-sandbox
// suites reach it through simulator/e2e/redis-server.ts.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

/** Path of redis-server, or undefined when it is not installed (suites then skip with this reason). */
export const REDIS_SERVER: string | undefined = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
})();
export const NO_REDIS_REASON = 'redis-server is not installed (apt-get install redis-server; .ci/run installs it)';

export interface TestRedis {
  url: string;
  port: number;
  /** Process id of the running server (its CPU is read from /proc by the cost measure). */
  pid(): number | undefined;
  /** Stops the server (SIGTERM) and waits for it to exit; the data directory stays for `start`. */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory (after `stop`). */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

/**
 * Starts redis-server on a free port with the append-only file on; `appendfsync` always (default:
 * nothing acknowledged is lost, the tests' choice) or everysec (at most a second lost, faster).
 * @example const redis = await startRedis(); await serve({ store: redis.url }); await redis.close();
 */
/** A loopback port that was free a moment ago. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

export async function startRedis(opts: { appendfsync?: 'always' | 'everysec' } = {}): Promise<TestRedis> {
  if (!REDIS_SERVER) throw new Error(NO_REDIS_REASON);
  const bin = REDIS_SERVER;
  const dir = mkdtempSync(join(tmpdir(), 'ncs-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
      const p = spawn(bin, [...args, '--appendonly', 'yes', '--appendfsync', opts.appendfsync ?? 'always'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = p;
      let out = '';
      const onData = (c: Buffer) => {
        out += c;
        if (out.includes('Ready to accept connections')) {
          p.stdout.off('data', onData);
          resolve();
        }
      };
      p.stdout.on('data', onData);
      p.stderr.on('data', (c) => (out += c));
      p.on('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${out}`)));
    });
  const stop = async () => {
    const p = child;
    child = undefined;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.on('exit', () => resolve());
      p.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    pid: () => child?.pid,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
