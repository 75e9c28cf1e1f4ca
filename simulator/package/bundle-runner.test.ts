import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFileName, commandOf } from './bundle-runner.js';

const RUNNER = new URL('./bundle-runner.js', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'ncs-bundle-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const caches = join(dir, 'xdg', 'ncs-sandbox', 'code-cache');
const { NODE_DISABLE_COMPILE_CACHE: _, ...baseEnv } = process.env;
const env = { ...baseEnv, XDG_CACHE_HOME: join(dir, 'xdg') };

/** A CommonJS "bundle": functions called at its start, as the CLI's are. */
const bundle = join(dir, 'bundle.cjs');
const text = (word: string) =>
  `const parts = [];\nfunction add(x) { parts.push(x); }\nfor (const w of ['${word}', require('node:path').basename(__filename)]) add(w);\n` +
  `process.stdout.write(parts.join(' ') + '\\n');\n`;

/** `node launcher.mjs <bundle> ...args`, as dist/cli/ncs.js runs ncs-main.cjs (no Node flags: key of []). */
const launcher = join(dir, 'launcher.mjs');
writeFileSync(
  launcher,
  `import { runBundle } from '${RUNNER}'; runBundle(process.argv.splice(2, 1)[0]);
process.on('exit', () => process.stderr.write(globalThis[Symbol.for('ncs-sandbox.bundle')].cache));`,
);
/** The name of a cache as the launcher's process computes it (no Node flags). */
const nameOf = (file: string, args: string[]) => cacheFileName(readFileSync(file, 'utf8'), args, env, []);

/** Runs the bundle through runBundle in a fresh process: what it printed and how its cache fared. */
function run(args: string[] = [], extra: Record<string, string> = {}): { out: string; cache: string } {
  const r = spawnSync(process.execPath, [launcher, bundle, ...args], {
    env: { ...env, ...extra },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return { out: r.stdout, cache: r.stderr };
}

const cacheFiles = () => (existsSync(caches) ? readdirSync(caches).sort() : []);

describe('runBundle (a code cache of what the bundle’s earlier starts ran)', () => {
  it('writes the cache on the first start, and the next start’s V8 accepts it; the bundle runs the same', () => {
    writeFileSync(bundle, text('alpha'));
    expect(run()).toEqual({ out: 'alpha bundle.cjs\n', cache: 'none' });
    expect(cacheFiles()).toHaveLength(1);
    expect(run()).toEqual({ out: 'alpha bundle.cjs\n', cache: 'accepted' });
  });

  it('an edit of the bundle, even of the same length, is never run from the old cache', () => {
    writeFileSync(bundle, text('alpha'));
    run();
    writeFileSync(bundle, text('omega')); // V8 checks only the length: the key is the content
    expect(run()).toEqual({ out: 'omega bundle.cjs\n', cache: 'none' });
    expect(run()).toEqual({ out: 'omega bundle.cjs\n', cache: 'accepted' });
  });

  it('a damaged cache is refused by V8, the bundle still runs, and the cache is written again', () => {
    writeFileSync(bundle, text('beta'));
    run();
    const file = join(caches, nameOf(bundle, []));
    expect(existsSync(file)).toBe(true);
    writeFileSync(file, Buffer.alloc(readFileSync(file).length, 7));
    expect(run()).toEqual({ out: 'beta bundle.cjs\n', cache: 'rejected' });
    expect(run()).toEqual({ out: 'beta bundle.cjs\n', cache: 'accepted' });
  });

  it('one cache per command and per V8 flags; NODE_DISABLE_COMPILE_CACHE and coverage turn it off', () => {
    expect(commandOf(['serve', '--port', '0'])).toBe('serve');
    expect(commandOf(['--quiet', 'conformance', 'run'])).toBe('conformance');
    expect(commandOf(['--version'])).toBe('other');
    const source = text('gamma');
    expect(cacheFileName(source, ['serve'], env)).toMatch(/^serve-[0-9a-f]{32}\.v8$/);
    expect(cacheFileName(source, ['serve'], env)).not.toBe(cacheFileName(source, ['token'], env));
    expect(cacheFileName(source, ['serve'], env)).not.toBe(
      cacheFileName(source, ['serve'], { ...env, NODE_OPTIONS: '--max-semi-space-size=8' }),
    );
    expect(cacheFileName(source, ['serve'], env, [])).not.toBe(cacheFileName(source, ['serve'], env, ['--no-opt']));
    writeFileSync(bundle, source);
    const before = cacheFiles();
    expect(run([], { NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({ out: 'gamma bundle.cjs\n', cache: 'off' });
    expect(run([], { NODE_V8_COVERAGE: join(dir, 'coverage') })).toEqual({ out: 'gamma bundle.cjs\n', cache: 'off' });
    expect(cacheFiles()).toEqual(before);
  });

  it('a command that could not run (exit code 2: a typo) keeps no cache; a negative verdict (1) does', () => {
    writeFileSync(bundle, `${text('epsilon')}process.exitCode = 2;\n`);
    const before = cacheFiles();
    const r = spawnSync(process.execPath, [launcher, bundle, 'nonsense'], { env, encoding: 'utf8' });
    expect([r.status, r.stdout, r.stderr]).toEqual([2, 'epsilon bundle.cjs\n', 'none']);
    expect(cacheFiles()).toEqual(before);
    writeFileSync(bundle, `${text('zeta')}process.exitCode = 1;\n`);
    const failed = spawnSync(process.execPath, [launcher, bundle, 'conformance'], { env, encoding: 'utf8' });
    expect([failed.status, failed.stderr]).toEqual([1, 'none']);
    expect(existsSync(join(caches, nameOf(bundle, ['conformance'])))).toBe(true);
  });

  it('a command’s first start takes the smallest cache another command of the same bundle wrote, then keeps its own', () => {
    // A typo (exit code 2) borrows too, and still writes nothing.
    writeFileSync(bundle, `${text('eta')}if (process.argv.includes('nonsense')) process.exitCode = 2;\n`);
    const r = (args: string[]) => spawnSync(process.execPath, [launcher, bundle, ...args], { env, encoding: 'utf8' });
    expect(run(['serve'])).toEqual({ out: 'eta bundle.cjs\n', cache: 'none' });
    const before = cacheFiles();
    const typo = r(['nonsense']);
    expect([typo.status, typo.stdout, typo.stderr]).toEqual([2, 'eta bundle.cjs\n', 'borrowed']);
    expect(cacheFiles()).toEqual(before);
    expect(run(['token'])).toEqual({ out: 'eta bundle.cjs\n', cache: 'borrowed' });
    expect(existsSync(join(caches, nameOf(bundle, ['token'])))).toBe(true);
    expect(run(['token'])).toEqual({ out: 'eta bundle.cjs\n', cache: 'accepted' });
    // The smallest is taken: a damaged one smaller than both is refused by V8, and the start writes its own.
    writeFileSync(join(caches, nameOf(bundle, ['aaa'])), 'not a code cache');
    expect(run(['webhook'])).toEqual({ out: 'eta bundle.cjs\n', cache: 'rejected' });
    expect(run(['webhook'])).toEqual({ out: 'eta bundle.cjs\n', cache: 'accepted' });
    // Other Node flags, another bundle key: nothing to borrow.
    expect(run(['openapi'], { NODE_OPTIONS: '--no-warnings' })).toEqual({ out: 'eta bundle.cjs\n', cache: 'none' });
  });

  it('a cache unused for a day is removed when another is written', () => {
    const old = join(caches, 'serve-00000000000000000000000000000000.v8');
    writeFileSync(old, 'x');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    writeFileSync(bundle, text('delta'));
    run();
    expect(existsSync(old)).toBe(false);
  });

  it('a server’s cache is written when its first request arrives, so a start killed after its first answer leaves one', async () => {
    const server = join(dir, 'server.cjs');
    writeFileSync(
      server,
      `const http = require('node:http');
const s = http.createServer((req, res) => res.end('ok'));
s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\\n'));`,
    );
    const child = spawn(process.execPath, [launcher, server, 'serve'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const port = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout }).once('line', resolve),
      );
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(await res.text()).toBe('ok');
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    expect(existsSync(join(caches, nameOf(server, ['serve'])))).toBe(true);
  });
});
