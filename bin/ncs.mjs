#!/usr/bin/env node
// The ncs command from the sources of a clone, as `npm run serve` and `npm run ncs --` start it (`node
// bin/ncs.ts` loads this file too). Plain JavaScript that turns Node's compile cache on before any
// TypeScript loads: Node then finds every stripped file in the cache and never loads its TypeScript
// stripper, 60-80 ms of CPU at every start that a `.ts` entry pays before its first line runs. Kept to
// syntax and APIs a Node that cannot run the sources (Node 20, or 22 before 22.18) still parses, so it
// can say which Node is needed. The installed package has its own launcher
// (simulator/package/cli-launcher.ts) with the same check.
import * as nodeModule from 'node:module';

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
await import('./cli/main.ts');
