// What `ncs serve` loads before its first answer (issue 23 item 27: the cold start). Each module is CPU
// at every start; these are the ones the first answer does not need and that once crept back in.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { waitForReadyFile } from '../../simulator/e2e/ready-file.ts';

/** What `npm run serve` and `npm run ncs` start. */
const NCS_MJS = fileURLToPath(new URL('../ncs.mjs', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'ncs-start-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Preloaded into the server: on SIGUSR2, writes Node's own internal modules (process.moduleLoadList)
// to LOADED_OUT and, with `hooks`, every module loaded through the ESM loader (a load hook makes Node
// strip TypeScript again instead of taking it from the compile cache, so it is left out when the
// question is whether the stripper loads).
const preload = (hooks: boolean) => `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = [];
if (${hooks}) registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
process.on('SIGUSR2', () => writeFileSync(process.env.LOADED_OUT, [...seen, ...process.moduleLoadList].join('\\n')));
`;

/** Modules loaded by `ncs serve` from spawn until after its first answer of GET /api/public/v1. */
async function loadedUntilFirstAnswer(opts: { hooks: boolean; env?: NodeJS.ProcessEnv }): Promise<string[]> {
  const ready = join(dir, `ready-${Math.random()}.json`);
  const out = join(dir, `loaded-${Math.random()}.txt`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(preload(opts.hooks))}`,
      NCS_MJS,
      'serve',
      '--port',
      '0',
      '--quiet',
      '--ready-file',
      ready,
    ],
    { env: { ...(opts.env ?? process.env), LOADED_OUT: out }, stdio: 'ignore' },
  );
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const { baseUrl } = await waitForReadyFile(ready);
    const res = await fetch(`${baseUrl}/api/public/v1`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    child.kill('SIGUSR2');
    for (let i = 0; i < 200 && !existsSync(out); i++) await sleep(25);
    return readFileSync(out, 'utf8').split('\n');
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

it('ncs serve answers its first request without Node’s bundled undici (an ES import of node:http loads it)', async () => {
  const loaded = await loadedUntilFirstAnswer({ hooks: true });
  expect(loaded.some((m) => m.endsWith('/simulator/app/serve.ts'))).toBe(true); // the hook saw the start
  expect(loaded.filter((m) => m.includes('internal/deps/undici'))).toEqual([]);
});

it('npm run serve’s entry (bin/ncs.mjs) starts without Node’s TypeScript stripper once the compile cache is warm', async () => {
  // A compile cache of this test's own, in the user's cache folder as the entry chooses it.
  const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...env } = process.env;
  env.XDG_CACHE_HOME = join(dir, 'xdg');
  const first = await loadedUntilFirstAnswer({ hooks: false, env }); // fills the cache
  expect(first.filter((m) => m.includes('internal/deps/amaro'))).not.toEqual([]); // the probe sees the stripper
  const warm = await loadedUntilFirstAnswer({ hooks: false, env });
  expect(warm.filter((m) => m.includes('internal/deps/amaro'))).toEqual([]);
});

it('a command other than serve (ncs --version) does not load the simulator', async () => {
  const out = join(dir, `version-${Math.random()}.txt`);
  const hook = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = [];
registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
process.on('exit', () => writeFileSync(process.env.LOADED_OUT, seen.join('\\n')));
`;
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, NCS_MJS, '--version'],
    {
      env: { ...process.env, LOADED_OUT: out },
      stdio: 'ignore',
    },
  );
  expect(await new Promise((r) => child.once('exit', r))).toBe(0);
  const loaded = readFileSync(out, 'utf8').split('\n');
  expect(loaded.some((u) => u.includes('/bin/cli/program.ts'))).toBe(true);
  // Its option table (serve-options.ts, with the rate-limit presets it names) is read to build the
  // help; the simulator itself (its composition, adapters and handlers) is not loaded.
  const simulator = /\/simulator\/(app\/(serve|sandbox|sandbox-state|create-core)\.ts|adapters\/|handlers\/)/;
  expect(loaded.filter((u) => simulator.test(u))).toEqual([]);
}, 30_000);
