// The library on a Node older than `engines`: importing any entry point fails at once with the line
// the `ncs` command prints, not with an error from deep inside a dependency (`Promise.withResolvers is
// not a function` on Node 20). Built as the package ships it (tsc, JavaScript only) into a temp folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { olderNode } from '../test-support/older-node.ts';
import { ROOT } from './build.ts';

const ENGINES = (await import('../../package.json', { with: { type: 'json' } })).default.engines.node;
const ENTRIES = ['dist/simulator/index.js', 'dist/conformance/index.js', 'dist/simulator/contract/index.js'];

/** Without an older Node here, this one posing as Node 20: its version, and the API Node 20 lacks. */
const POSE_AS_NODE_20 = `data:text/javascript,${encodeURIComponent(
  "Object.defineProperty(process, 'version', { value: 'v20.20.2' }); delete Promise.withResolvers;",
)}`;

describe('the library on an unsupported Node', () => {
  let pkg: string;
  beforeAll(() => {
    pkg = mkdtempSync(join(tmpdir(), 'ncs-library-node-'));
    copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    const tsc = join(ROOT, 'node_modules/.bin/tsc');
    // The build's JavaScript without its checks: `--noResolve` compiles the files the build includes
    // (every source of the package) without reading the dependencies' declarations, on one thread.
    // The same JavaScript, byte for byte (compared with `diff -r` on 2026-11-26), on 1.35 s of CPU
    // instead of 2.3-2.7 s.
    execFileSync(tsc, [
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--noCheck',
      '--noResolve',
      '--singleThreaded',
      '--declaration',
      'false',
      '--outDir',
      join(pkg, 'dist'),
    ]);
  }, 120_000);
  afterAll(() => rmSync(pkg, { recursive: true, force: true }));

  const importWith = (node: string, pre: string[], entry: string) =>
    spawnSync(
      node,
      [...pre, '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(pkg, entry)).href)})`],
      {
        encoding: 'utf8',
      },
    );

  it('every entry point fails at import with the Node-version line', () => {
    const old = olderNode(ENGINES);
    const [node, pre] = old ? [old, []] : [process.execPath, ['--import', POSE_AS_NODE_20]];
    for (const entry of ENTRIES) {
      const run = importWith(node, pre, entry);
      expect(run.status, entry).not.toBe(0);
      expect(run.stderr, entry).toMatch(new RegExp(`ncs needs Node\\.js ${ENGINES}; this is Node\\.js v20\\.`));
      expect(run.stderr, entry).not.toMatch(/withResolvers/);
    }
  });

  it('a supported Node imports every entry point', () => {
    for (const entry of ENTRIES) expect(importWith(process.execPath, [], entry).stderr, entry).toBe('');
  });
});
