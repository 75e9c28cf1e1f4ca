import { spawn } from 'node:child_process';
import { ROOT } from '../lib/processes.ts';

export interface MemoryPoint {
  /** Work done so far (keys, messages, connections). */
  n: number;
  rssMb: number;
  heapUsedMb: number;
}

/** Memory after two full collections (needs --expose-gc), so the numbers are what is retained. */
export function retained(n: number): MemoryPoint {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return { n, rssMb: m.rss / 1024 / 1024, heapUsedMb: m.heapUsed / 1024 / 1024 };
}

/**
 * Runs `script --child <args>` under `node --expose-gc` and parses the JSON it prints last.
 * Killed after `timeoutMs`.
 */
export function runMemoryChild<T>(script: string, args: string[], timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', script, '--child', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c));
    proc.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 8000) stderr += c;
    });
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(
          new Error(
            `memory check ${signal === 'SIGKILL' ? `killed after ${timeoutMs} ms` : `exited ${code}`}: ${stderr.slice(0, 2000)}`,
          ),
        );
      try {
        resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as T);
      } catch {
        reject(new Error(`memory check printed no result: ${stdout.slice(-500)} ${stderr.slice(0, 500)}`));
      }
    });
  });
}
