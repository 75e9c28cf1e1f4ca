// A clone's `ncs` (bin/ncs.mjs) starts the cached bundle of its own current sources when one matches
// them, and never a stale one (simulator/package/source-package.js). Run on a copy of the clone (its
// sources edited freely here) with a cache folder of its own: real processes, the real background build.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RACY_MS } from './source-key.js';
import { sourcesHash, sourcesRecordFile } from './source-package.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ncs-source-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A clone of the worktree: its sources, manifest and fixtures copied, its dependencies linked. */
const clone = join(dir, 'clone');
for (const part of ['bin', 'simulator', 'conformance', 'package.json', 'fixtures/hospitality.json'])
  cpSync(join(ROOT, part), join(clone, part), { recursive: true });
symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
/** When the clone's files were written (their change time). */
const copiedAt = Date.now();
const { NODE_COMPILE_CACHE: _, NCS_FROM_SOURCES: __, ...baseEnv } = process.env;
const env = { ...baseEnv, XDG_CACHE_HOME: join(dir, 'xdg'), NCS_BUNDLE_DELAY_MS: '0' };
const bundles = join(dir, 'xdg', 'ncs-sandbox', 'bundles');

// Records every module the ESM loader loads, written at exit.
const hook = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = [];
registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
// The bundle a launcher runs through vm.Script (simulator/package/bundle-runner.js), which no loader sees.
process.on('exit', () => {
  const bundle = globalThis[Symbol.for('ncs-sandbox.bundle')];
  writeFileSync(process.env.LOADED_OUT, [...seen, ...(bundle ? ['bundle:' + bundle.file] : [])].join('\\n'));
});
`;

type Run = { code: number | null; stdout: string; stderr: string; loaded: string[] };

/** `node bin/ncs.mjs ...args` in the clone, as `npm run ncs --` starts it. */
async function ncs(...args: string[]): Promise<Run> {
  return ncsWith({}, ...args);
}

async function ncsWith(extra: Record<string, string>, ...args: string[]): Promise<Run> {
  return start(join(clone, 'bin/ncs.mjs'), extra, args);
}

async function start(entry: string, extra: Record<string, string>, args: string[]): Promise<Run> {
  const out = join(dir, `loaded-${Math.random()}.txt`);
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, entry, ...args],
    { env: { ...env, ...extra, LOADED_OUT: out }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  return { code, stdout, stderr, loaded: readFileSync(out, 'utf8').split('\n') };
}

/** Which code a start ran: the bundle in the cache, or the clone's TypeScript modules. */
const ran = (run: Run) => ({
  bundle: run.loaded.some(
    (u) => u.startsWith('bundle:') && u.includes('/ncs-sandbox/bundles/') && u.endsWith('/dist/cli/ncs-main.cjs'),
  ),
  sources: run.loaded.some((u) => u.endsWith('/bin/cli/program.ts')),
});

/** Waits for the background build of the clone's current sources to end (its lock gone); its package folder. */
async function builtBundle(): Promise<string> {
  const key = sourcesHash(clone);
  for (let i = 0; i < 1800 && existsSync(join(bundles, `${key}.building`)); i++) await sleep(100);
  expect(existsSync(join(bundles, `${key}.building`)), 'build still running after 180 s').toBe(false);
  return join(bundles, key);
}

/** Leftovers of builds: none may stay once no build runs. */
const halfWritten = () => readdirSync(bundles).filter((n) => n.startsWith('building-') || n.endsWith('.building'));

describe('bin/ncs.mjs and the bundle of the clone’s sources', () => {
  it('a miss runs the sources and builds the bundle in the background; the next start runs the bundle', async () => {
    const first = await ncs('--version');
    expect([first.code, first.stdout, first.stderr]).toEqual([0, '0.1.0\n', '']);
    expect(ran(first)).toEqual({ bundle: false, sources: true });
    const pkg = await builtBundle();
    expect(existsSync(join(pkg, 'dist/cli/ncs-main.cjs'))).toBe(true);
    expect(halfWritten()).toEqual([]);
    const next = await ncs('--version');
    expect([next.code, next.stdout, next.stderr]).toEqual([0, '0.1.0\n', '']);
    expect(ran(next)).toEqual({ bundle: true, sources: false });
    // `node bin/ncs.ts`, the documented entry, goes through bin/ncs.mjs.
    const ts = await start(join(clone, 'bin/ncs.ts'), {}, ['--version']);
    expect([ts.code, ts.stdout, ran(ts)]).toEqual([0, '0.1.0\n', { bundle: true, sources: false }]);
    // The opt-out: the TypeScript sources, bundle or not.
    const opted = await ncsWith({ NCS_FROM_SOURCES: '1' }, '--version');
    expect([opted.code, opted.stdout, ran(opted)]).toEqual([0, '0.1.0\n', { bundle: false, sources: true }]);
  }, 240_000);

  it('an edit of a source is run by the very next start, even one keeping the file’s size and times', async () => {
    await builtBundle();
    // A start records the sources' stat once every file is older than the racy window (source-key.js): that
    // record is what the start after the edit would read if the edit did not show in it. The starts above
    // may all have come within the window after the copy (a start of the bundle takes ~0.1 s): wait it
    // out, and start once more.
    await sleep(Math.max(0, copiedAt + RACY_MS + 200 - Date.now()));
    expect((await ncs('--version')).code).toBe(0);
    expect(existsSync(sourcesRecordFile(clone, bundles))).toBe(true);
    const file = join(clone, 'bin/cli/commands/version.ts');
    const { atime, mtime, size } = statSync(file);
    const text = readFileSync(file, 'utf8');
    const edited = text.replace('return manifest.version;', "return 'edited-version';");
    expect(edited.length).toBe(text.length);
    writeFileSync(file, edited);
    utimesSync(file, atime, mtime); // as `cp -p`, `tar` or `rsync -a` leave it: a key of size and mtime would miss it
    expect(statSync(file).size).toBe(size);
    const next = await ncs('--version');
    expect([next.code, next.stdout]).toEqual([0, 'edited-version\n']);
    expect(ran(next)).toEqual({ bundle: false, sources: true });
    await builtBundle();
    const bundled = await ncs('--version');
    expect([bundled.code, bundled.stdout]).toEqual([0, 'edited-version\n']);
    expect(ran(bundled)).toEqual({ bundle: true, sources: false });
  }, 240_000);

  it('two starts at once on a miss both answer, and one bundle results', async () => {
    await builtBundle();
    const manifest = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8'));
    writeFileSync(join(clone, 'package.json'), JSON.stringify({ ...manifest, version: '0.2.0' }, null, 2));
    const both = await Promise.all([ncs('--version'), ncs('--version')]);
    for (const run of both)
      expect([run.code, run.stdout, run.stderr, ran(run).sources]).toEqual([0, 'edited-version\n', '', true]);
    await builtBundle();
    expect(halfWritten()).toEqual([]);
    const bundled = await ncs('--version');
    expect([bundled.code, bundled.stdout, ran(bundled).bundle]).toEqual([0, 'edited-version\n', true]);
  }, 240_000);

  it('a failed build leaves nothing half-written, says nothing, and is not retried for the same sources', async () => {
    await builtBundle();
    // Broken where `--version` does not look: the sources still run it, the bundle cannot be built.
    writeFileSync(join(clone, 'simulator/app/broken.ts'), 'export const = ;\n');
    writeFileSync(
      join(clone, 'simulator/app/serve.ts'),
      `import './broken.ts';\n${readFileSync(join(clone, 'simulator/app/serve.ts'), 'utf8')}`,
    );
    const key = sourcesHash(clone);
    const miss = await ncs('--version');
    expect([miss.code, miss.stdout, miss.stderr, ran(miss).sources]).toEqual([0, 'edited-version\n', '', true]);
    await builtBundle();
    expect(existsSync(join(bundles, `${key}.failed`))).toBe(true);
    expect(existsSync(join(bundles, key))).toBe(false);
    expect(halfWritten()).toEqual([]);
    const again = await ncs('--version');
    expect([again.code, again.stdout, again.stderr]).toEqual([0, 'edited-version\n', '']);
    expect(halfWritten()).toEqual([]); // no second build of the same broken sources
  }, 240_000);
});
