// Test helpers for every end-to-end test of the CLI (bin/, simulator/e2e/, conformance/e2e/): the ncs
// command as a child process, and a port nothing listens on.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { NCS_BIN } from './ready-file.ts';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs ncs asynchronously with only PATH and the given variables (the simulator under test may run in
 * the test's own process).
 * @example const r = await ncs(['token', '--client-id', 'x'], { NCS_BASE_URL: baseUrl });
 */
export function ncs(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [NCS_BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A loopback port that was free a moment ago: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}
