// What `ncs serve` loads before its first answer (issue 23 item 27: the cold start). Each module is CPU
// at every start; these are the ones the first answer does not need and that once crept back in. A
// clone's start runs the cached bundle of its sources when there is one (simulator/package/source-package.js):
// the tests about the TypeScript modules start them with the opt-out, NCS_FROM_SOURCES=1.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { waitForReadyFile } from '../e2e/ready-file.ts';
import { packagesDir, sourcesHash } from './source-package.js';
import { buildSourcePackage } from './source-package-build.ts';

/** What `npm run serve` and `npm run ncs` start. */
const NCS_MJS = fileURLToPath(new URL('../../bin/ncs.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'ncs-start-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The TypeScript modules, whatever the cache holds. */
const fromSources: NodeJS.ProcessEnv = { ...process.env, NCS_FROM_SOURCES: '1' };

// Preloaded into the server: on SIGUSR2, writes Node's own internal modules (process.moduleLoadList)
// to LOADED_OUT (whole, by a rename) and, with `hooks`, every module loaded through the ESM loader (a load hook makes Node
// strip TypeScript again instead of taking it from the compile cache, so it is left out when the
// question is whether the stripper loads).
const preload = (hooks: boolean) => `
import { registerHooks } from 'node:module';
import { renameSync, writeFileSync } from 'node:fs';
const seen = [];
if (${hooks}) registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
// The bundle a launcher runs through vm.Script (simulator/package/bundle-runner.js), which no loader sees.
const bundle = () => { const b = globalThis[Symbol.for('ncs-sandbox.bundle')]; return b ? ['bundle:' + b.file, 'code-cache:' + b.cache] : []; };
// Written aside and renamed: the test polls for the file, and read between its creation and the write it
// was empty (a start "without" the modules it had loaded, seen under load).
const out = process.env.LOADED_OUT;
process.on('SIGUSR2', () => { writeFileSync(out + '.part', [...seen, ...bundle(), ...process.moduleLoadList].join('\\n')); renameSync(out + '.part', out); });
`;

/** Modules loaded by `ncs serve` from spawn until after its first answer of GET /api/public/v1. */
async function loadedUntilFirstAnswer(opts: { hooks: boolean; env?: NodeJS.ProcessEnv }): Promise<string[]> {
  return (await firstAnswer(opts)).loaded;
}

/** That list, and what the start printed by then. */
async function firstAnswer(opts: {
  hooks: boolean;
  env?: NodeJS.ProcessEnv;
  quiet?: boolean;
}): Promise<{ loaded: string[]; stdout: string }> {
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
      ...(opts.quiet === false ? [] : ['--quiet']),
      '--ready-file',
      ready,
    ],
    { env: { ...(opts.env ?? fromSources), LOADED_OUT: out }, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let stdout = '';
  child.stdout?.on('data', (c) => (stdout += c));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const { baseUrl } = await waitForReadyFile(ready);
    const res = await fetch(`${baseUrl}/api/public/v1`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    child.kill('SIGUSR2');
    for (let i = 0; i < 200 && !existsSync(out); i++) await sleep(25);
    return { loaded: readFileSync(out, 'utf8').split('\n'), stdout };
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
  const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...env } = fromSources;
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
      env: { ...fromSources, LOADED_OUT: out },
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
  // Nor any other command's library modules (bin/cli/commands/lazy.ts): no zod schema is built, no
  // client, route table or kit module loaded (the same imports make the bundle's start as lazy).
  expect(loaded.filter((u) => u.includes('/node_modules/zod/'))).toEqual([]);
  const library = /\/(simulator\/(control|contract\/(openapi|ready-file|limits|audit-verdict))|conformance\/client)\//;
  expect(loaded.filter((u) => library.test(u))).toEqual([]);
}, 30_000);

it('npm run serve runs the cached bundle of the clone’s current sources: none of its modules, and a banner still true', async () => {
  // The bundle of these very sources, where the launcher looks (the test run's globalSetup built it already).
  const bundles = packagesDir();
  if (!bundles) return; // no usable cache folder: the launcher always runs the sources (the tests above)
  await buildSourcePackage(ROOT, bundles, sourcesHash(ROOT));
  const { NCS_FROM_SOURCES: _, ...env } = process.env;
  const { loaded, stdout } = await firstAnswer({ hooks: true, env, quiet: false });
  const main = join(bundles, sourcesHash(ROOT), 'dist/cli/ncs-main.cjs');
  expect(loaded).toContain(`bundle:${main}`);
  // The launcher's own modules, and no TypeScript module of the CLI or the simulator.
  expect(loaded.filter((u) => u.startsWith(pathToFileURL(ROOT).href) && u.endsWith('.ts'))).toEqual([
    pathToFileURL(join(ROOT, 'simulator/contract/node-version.ts')).href,
  ]);
  expect(loaded.filter((m) => m.includes('internal/deps/undici'))).toEqual([]);
  // Started from a clone: `ncs` is on nobody's PATH there, whichever code runs.
  expect(stdout).toMatch(/ {2}new token {3}npm run ncs -- token --base-url http:\/\/127\.0\.0\.1:\d+ /);
  // The bundle's code comes from the code cache its earlier start wrote (simulator/package/bundle-runner.js):
  // what that start ran is not compiled again.
  const again = await loadedUntilFirstAnswer({ hooks: true, env });
  expect(again.filter((m) => m.startsWith('bundle:') || m.startsWith('code-cache:'))).toEqual([
    `bundle:${main}`,
    'code-cache:accepted',
  ]);
}, 60_000);
