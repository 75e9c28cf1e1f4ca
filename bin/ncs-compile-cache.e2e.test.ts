import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { NCS_BIN, waitForReadyFile } from '../simulator/e2e/ready-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'ncs-compile-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Files under `root`, at any depth. */
const files = (root: string): string[] =>
  readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

it('ncs serve writes the compile cache once listening, so even a killed server leaves it for the next start', async () => {
  const cache = join(dir, 'cache');
  const ready = join(dir, 'ready.json');
  const child = spawn(process.execPath, [NCS_BIN, 'serve', '--port', '0', '--quiet', '--ready-file', ready], {
    env: { ...process.env, NODE_COMPILE_CACHE: cache },
    stdio: 'ignore',
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    await waitForReadyFile(ready);
  } finally {
    child.kill('SIGKILL'); // no exit handler runs: only the write after listening can have filled the cache
    await exited;
  }
  expect(files(cache).length).toBeGreaterThan(10);
});
