#!/usr/bin/env node
// The ncs command from the sources of a clone, as `npm run serve` and `npm run ncs --` start it (`node
// bin/ncs.ts` loads this file too). Plain JavaScript that turns Node's compile cache on before any
// TypeScript loads: Node then finds every stripped file in the cache and never loads its TypeScript
// stripper, 60-80 ms of CPU at every start that a `.ts` entry pays before its first line runs. Kept to
// syntax and APIs a Node that cannot run the sources (Node 20, or 22 before 22.18) still parses, so it
// can say which Node is needed. The installed package has its own launcher
// (simulator/package/cli-launcher.ts) with the same check.
//
// Then it runs the bundle of the clone's own current sources when the user's cache holds one (built by
// `npm run build`'s esbuild step; simulator/package/source-package.js), as the installed package runs
// its own (simulator/package/bundle-runner.js, with a code cache of what earlier starts ran): the same
// code, started without resolving and loading ~520 modules, which is two thirds of a start from source.
// The bundle is found by what every source file holds, so an edit is never missed: a start that finds no
// bundle of exactly these sources runs them as they are and builds the bundle in the background for the
// next start.
// NCS_FROM_SOURCES=1 always runs the TypeScript sources (debugging, stack traces into the .ts files).
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';

const { engines } = nodeModule.createRequire(import.meta.url)('../package.json');
const notSupported = () =>
  `ncs needs Node.js ${engines.node}; this is Node.js ${process.version}, which cannot run the sources. ` +
  'In a clone, run it through npm, which uses the Node the project pins: npm run ncs -- <command>\n';
// Type stripping is what lets Node run the sources; without it nothing past this file can load.
if (!process.features.typescript) {
  process.stderr.write(notSupported());
  process.exit(2);
}
const { enableUserCompileCache } = await import('../simulator/package/compile-cache.js');
enableUserCompileCache(nodeModule.enableCompileCache);
const { nodeSatisfies } = await import('../simulator/contract/node-version.ts');
if (!nodeSatisfies(process.version, engines.node)) {
  process.stderr.write(notSupported());
  process.exit(2);
}
const fromSources = process.env.NCS_FROM_SOURCES && process.env.NCS_FROM_SOURCES !== '0';
const bundle = fromSources
  ? undefined
  : (await import('../simulator/package/source-package.js')).sourceBundle(
      fileURLToPath(new URL('..', import.meta.url)),
    );
if (bundle) {
  // The bundle's own module URL says "installed package"; what it prints must say "a clone" (the banner's
  // `npm run ncs --`, bin/cli/commands/serve.ts).
  globalThis[Symbol.for('ncs-sandbox.clone')] = true;
  (await import('../simulator/package/bundle-runner.js')).runBundle(bundle);
} else {
  await import('./cli/main.ts');
}
