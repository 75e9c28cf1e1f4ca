// `npm run check:install` (run by .ci/run): what a partner does on day one, on every supported Node.
// Packs the tarball (prepack builds it), then per Node version (the registry packages node@<floor>,
// node@22 and node@24, so any machine can run it): installs it with `npm install -D` into an empty project, and
// checks that `npx ncs serve` answers GET /api/public/v1, that the three entry points load in plain
// Node and in vitest (the README's MSW example), that `tsc --strict` (nodenext, bundler) finds the types, and
// that nothing on the way prints a warning. Last, Node 20 must get one line naming the Node it needs.
// CHECK_NODE_VERSIONS=22,24 picks the versions (default: the engines floor, 22 and 24).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { waitForReadyFile } from '../contract/ready-file.ts';
import { ROOT } from './build.ts';
import { writeConsumerProject } from './consumer-project.ts';
import { warningLines } from './output-warnings.ts';
import { installPacked } from './scratch-install.ts';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** The lowest Node `engines` admits (`>=22.19` -> 22.19.0), the newest 22 and the newest 24. */
const FLOOR = /^>=(\d+)\.(\d+)(?:\.(\d+))?$/.exec(manifest.engines.node);
if (!FLOOR) throw new Error(`engines.node ${manifest.engines.node}: expected >=MAJOR.MINOR`);
const SUPPORTED = process.env.CHECK_NODE_VERSIONS?.split(',').filter(Boolean) ?? [
  `${FLOOR[1]}.${FLOOR[2]}.${FLOOR[3] ?? 0}`,
  '22',
  '24',
];
const dev = manifest.devDependencies as Record<string, string>;
/** The consumer's tools, in the ranges this repository itself tests with. */
const TOOLS = [`vitest@${dev.vitest}`, `typescript@${dev.typescript}`, `@types/node@${dev['@types/node']}`];

/** The environment of a command run "as a user" on `nodeBin`: no npm_* left over from `npm run`. */
function userEnv(nodeBin?: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  if (nodeBin) env.PATH = `${dirname(nodeBin)}${delimiter}${env.PATH ?? ''}`;
  return { ...env, NO_COLOR: '1', CI: '1' };
}

/** Runs a command to completion; throws with its output when it fails. Returns stdout + stderr. */
function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
  // Both streams: warnings go to stderr, and a warning is a failure here.
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.error || r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}):\n${output}`);
  return output;
}

/** Absolute path of the node binary of the registry package node@<major> (npx caches it). */
function nodeBinary(major: string): string {
  const out = sh('npx', ['-y', '-p', `node@${major}`, 'node', '-p', 'process.execPath'], tmpdir(), userEnv());
  const path = out.split('\n').find((line) => isAbsolute(line.trim()) && /node(\.exe)?$/.test(line.trim()));
  if (!path) throw new Error(`npx -p node@${major} did not name its node binary:\n${out}`);
  return path.trim();
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

/**
 * The inspector's page through the printed login link: the packed CLI bundle carries no copy of the
 * page's files and reads the library's (dist/simulator/inspector/assets), so only the packed package
 * shows whether it finds them.
 */
async function checkInspectorPage(baseUrl: string, loginUrl: string): Promise<void> {
  const login = await fetch(loginUrl, { redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (login.status !== 303 || !cookie) throw new Error(`the inspector's login link answered ${login.status}`);
  for (const file of ['', 'app.js', 'style.css']) {
    const page = await fetch(`${baseUrl}/_sandbox/inspector/${file}`, { headers: { cookie } });
    await page.arrayBuffer();
    if (page.status !== 200) throw new Error(`the inspector's /${file} answered ${page.status}`);
  }
}

/** `npx ncs serve` in the consumer project answers GET /api/public/v1 and passes the kit's discovery checks. */
async function checkServe(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const ready = join(dir, 'ready.json');
  const args = ['ncs', 'serve', '--port', '0', '--ready-file', ready, '--quiet'];
  const child = spawn('npx', args, { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = new Promise((r) => child.once('close', r));
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  try {
    const { baseUrl, inspectorUrl } = await waitForReadyFile(ready);
    const res = await get(`${baseUrl}/api/public/v1`);
    if (res.status !== 200 || JSON.parse(res.body).ok !== true)
      throw new Error(`GET /api/public/v1 answered ${res.status}: ${res.body.slice(0, 200)}`);
    await checkInspectorPage(baseUrl, inspectorUrl ?? '');
    // The kit, which the bundle loads from the package's dist/conformance/ (published-plugins.ts): undici loads on
    // its first request, the OpenAPI schema validator reads its schema files from the installed package.
    const kit = sh('npx', ['ncs', 'conformance', 'run', '--base-url', baseUrl, '--grep', '^discovery\\.'], dir, env);
    if (!/discovery: [1-9]\d* passed/.test(kit)) throw new Error(`the kit's discovery checks did not pass:\n${kit}`);
    output += kit;
  } catch (err) {
    throw new Error(`npx ncs serve: ${(err as Error).message}\n${output}`);
  } finally {
    // npx runs the bin in a child: stop the whole group (unless it is gone already).
    try {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    } catch {}
    await closed;
  }
  return output;
}

/**
 * Installs `tarball` on Node `major` and runs every check; returns the lines that failed.
 * @example await checkOnNode('22', '/tmp/ncs-sandbox-0.1.0.tgz', '/tmp/consumer-22')
 */
export async function checkOnNode(major: string, tarball: string, dir: string): Promise<string[]> {
  const nodeBin = nodeBinary(major);
  const env = userEnv(nodeBin);
  writeConsumerProject(dir);
  const version = sh(nodeBin, ['--version'], dir, env).trim();
  const failures: string[] = [];
  const step = async (name: string, fn: () => string | Promise<string>) => {
    try {
      const warnings = warningLines(await fn());
      if (warnings.length) throw new Error(`printed warnings:\n${warnings.join('\n')}`);
      process.stdout.write(`  ok   Node ${version}: ${name}\n`);
    } catch (err) {
      failures.push(`Node ${version}: ${name}: ${(err as Error).message}`);
      process.stdout.write(`  FAIL Node ${version}: ${name}\n${(err as Error).message}\n`);
    }
  };
  await step('npm install -D ncs-sandbox (+ vitest, typescript, @types/node)', () => {
    const { output, pinned } = installPacked(dir, [tarball, ...TOOLS], env);
    if (pinned) process.stdout.write(`  note Node ${version}: ${pinned}\n`);
    return output;
  });
  if (failures.length) return failures;
  await step(
    'npx ncs serve answers GET /api/public/v1 and serves the inspector page; npx ncs conformance run (discovery) passes',
    () => checkServe(dir, env),
  );
  await step("plain Node imports 'ncs-sandbox', '/conformance', '/contract'", () =>
    sh(nodeBin, ['plain-imports.mjs'], dir, env),
  );
  await step('vitest runs the README MSW example and imports every entry point', () =>
    sh('npx', ['vitest', 'run'], dir, env),
  );
  await step('tsc --strict finds the types (moduleResolution nodenext, and bundler)', () =>
    [
      sh('npx', ['tsc', '-p', '.'], dir, env),
      sh('npx', ['tsc', '-p', '.', '--module', 'preserve', '--moduleResolution', 'bundler'], dir, env),
    ].join(''),
  );
  return failures;
}

/** On Node 20 the installed bin must say which Node it needs (exit 2), not crash. */
function checkOldNode(dir: string): string[] {
  const nodeBin = nodeBinary('20');
  const bin = join(dir, 'node_modules/ncs-sandbox/dist/cli/ncs.js');
  try {
    execFileSync(nodeBin, [bin, 'serve', '--port', '0'], { cwd: dir, env: userEnv(nodeBin), stdio: 'pipe' });
    return ['Node 20: ncs serve started although the package needs a newer Node'];
  } catch (err) {
    const e = err as { status: number; stderr: Buffer };
    const text = e.stderr.toString();
    const ok =
      e.status === 2 && /^ncs needs Node\.js >=\d+\.\d+; this is Node\.js v20\./.test(text) && !/\bat /.test(text);
    process.stdout.write(`  ${ok ? 'ok  ' : 'FAIL'} Node 20: ${text.trim()}\n`);
    return ok ? [] : [`Node 20: expected exit 2 and one line naming the Node needed, got ${e.status}: ${text}`];
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ncs-install-check-'));
  try {
    process.stdout.write('packing (prepack builds dist/)...\n');
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
    const packed = JSON.parse(out);
    const tarball = join(work, packed[0].filename);
    process.stdout.write(
      `  ${packed[0].filename}: ${(packed[0].size / 1024).toFixed(0)} KB, ${packed[0].entryCount} files\n`,
    );
    const failures: string[] = [];
    for (const major of SUPPORTED) failures.push(...(await checkOnNode(major, tarball, join(work, `node-${major}`))));
    failures.push(...checkOldNode(join(work, `node-${SUPPORTED.at(-1)}`)));
    process.stdout.write(failures.length ? `\n${failures.length} check(s) failed\n` : '\ninstall check passed\n');
    process.exitCode = failures.length ? 1 : 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
