import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { NCS_BIN as BIN, waitForReadyFile } from './ready-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'ncs-trace-'));
/** Stops each server a test started (SIGTERM), and waits until it exited. */
const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** Starts `ncs serve` with extra args and env; returns its ready info, a reader of its stderr and a stop. */
async function start(name: string, args: string[], env: Record<string, string> = {}) {
  const ready = join(dir, `${name}.json`);
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--ready-file', ready, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NCS_TRACE: '', ...env },
  });
  // 'close': the process exited and its stderr was read to the end.
  const closed = new Promise((resolve) => proc.on('close', resolve));
  const stop = () => {
    proc.kill('SIGTERM');
    return closed;
  };
  stops.push(stop);
  let stderr = '';
  proc.stderr?.on('data', (c) => (stderr += c));
  return { info: await waitForReadyFile(ready, { timeoutMs: 30_000 }), stderr: () => stderr, stop };
}

async function providers(info: { baseUrl: string; token: string; tenant: string }) {
  const res = await fetch(`${info.baseUrl}/api/public/v1/providers`, {
    headers: { authorization: `Bearer ${info.token}`, 'x-service-tenant': info.tenant },
  });
  return { status: res.status, requestId: res.headers.get('x-request-id') ?? '' };
}

async function traceOf(stderr: () => string, requestId: string) {
  for (let i = 0; i < 40 && !stderr().includes(`${requestId} interface answered`); i++) await sleep(25);
  return stderr()
    .split('\n')
    .filter((l) => l.startsWith(`ncs trace ${requestId} `));
}

describe('ncs serve --trace / NCS_TRACE=1', () => {
  it('prints each step of each request to stderr with --trace', async () => {
    const { info, stderr } = await start('flag', ['--trace']);
    const { status, requestId } = await providers(info);
    expect(status).toBe(200);
    const lines = await traceOf(stderr, requestId);
    expect(lines.map((l) => l.slice(`ncs trace ${requestId} `.length))).toEqual([
      'GET /api/public/v1/providers -> interface',
      // Client verdicts are on by default: their observer is first in line.
      'interface client-observer',
      'interface version',
      'interface browser-guard',
      'interface route-match',
      'interface auth',
      'interface rate-limit',
      'interface faults',
      'interface idempotency-key',
      'interface validate',
      'interface idempotency',
      'interface handler listProviders',
      'interface answered 200',
    ]);
  });

  it('prints it with NCS_TRACE=1, and nothing without either', async () => {
    // Two independent servers, started together.
    const [traced, plain] = await Promise.all([start('env', [], { NCS_TRACE: '1' }), start('none', [])]);
    const first = await providers(traced.info);
    expect(await traceOf(traced.stderr, first.requestId)).toContain(
      `ncs trace ${first.requestId} interface answered 200`,
    );
    expect((await providers(plain.info)).status).toBe(200);
    // Everything it printed, from start to exit: no line of a trace.
    await plain.stop();
    expect(plain.stderr()).not.toContain('ncs trace');
  });
});
