import { spawn } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { NCS_SOURCE_BIN, waitForReadyFile } from '../../simulator/e2e/ready-file.ts';

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
  const child = spawn(process.execPath, [NCS_SOURCE_BIN, 'serve', '--port', '0', '--quiet', '--ready-file', ready], {
    env: { ...process.env, NODE_COMPILE_CACHE: cache, NCS_FROM_SOURCES: '1' }, // the TypeScript modules, not the cached bundle
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

it('keeps the cache in the user’s own folder (0700), not a shared temp folder; refuses one another user owns', async () => {
  const home = join(dir, 'home');
  const xdg = join(dir, 'xdg');
  const { NODE_COMPILE_CACHE: _, ...env } = process.env;
  const run = (extra: Record<string, string>) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [NCS_SOURCE_BIN, 'openapi'], {
        // From the sources (no bundle of them is looked for or built in this cache folder).
        env: { ...env, HOME: home, XDG_CACHE_HOME: xdg, NCS_FROM_SOURCES: '1', ...extra },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (c) => (stderr += c));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
  const first = await run({});
  expect(first.code, first.stderr).toBe(0);
  const cache = join(xdg, 'ncs-sandbox', 'compile-cache');
  expect(statSync(cache).mode & 0o777).toBe(0o700);
  expect(files(cache).length).toBeGreaterThan(10);
  if (process.getuid?.() !== 0) return; // planting a folder of another user needs root (chown)
  const planted = join(dir, 'planted');
  mkdirSync(join(planted, 'ncs-sandbox', 'compile-cache'), { recursive: true });
  chownSync(join(planted, 'ncs-sandbox', 'compile-cache'), 65534, 65534);
  const refused = await run({ XDG_CACHE_HOME: planted });
  expect(refused.code).toBe(0); // the command still runs, without the cache
  expect(refused.stderr).toMatch(/compile cache off: .* belongs to another user \(uid 65534\)/);
  expect(files(join(planted, 'ncs-sandbox', 'compile-cache'))).toEqual([]);
});
