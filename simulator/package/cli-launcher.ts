#!/usr/bin/env node
// The installed `ncs` command (dist/cli/ncs.js). It checks the Node version before loading the
// bundled CLI (dist/cli/ncs-main.cjs): on an older Node the user gets one clear line instead of an
// error from deep inside a dependency. Kept free of recent syntax and APIs so old Nodes can parse it.
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { unsupportedNodeMessage } from '../contract/node-version.ts';
import { runBundle } from './bundle-runner.js';
import { enableUserCompileCache } from './compile-cache.js';

// node:fs without its ES facade (which loads fs/promises and its streams, 5-8 ms of CPU at every start)
// where Node has getBuiltinModule (22.3+); an older Node only needs it to say which Node to use.
const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
const { readFileSync } = (
  getBuiltin ? getBuiltin.call(process, 'node:fs') : await import('node:fs')
) as typeof import('node:fs');
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};
const problem = unsupportedNodeMessage(process.version, manifest.engines.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(2);
}
// For the ES modules loaded after the bundle (yaml, fast-check, the Redis client), in the user's own
// folder; see bin/ncs.ts. A namespace import: the launcher must still load on Nodes without the function.
enableUserCompileCache((nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache);
// The bundle, with the code cache of what earlier starts ran (bundle-runner.js).
runBundle(fileURLToPath(new URL('./ncs-main.cjs', import.meta.url)));
