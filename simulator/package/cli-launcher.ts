#!/usr/bin/env node
// The installed `ncs` command (dist/cli/ncs.js). It checks the Node version before loading the
// bundled CLI (dist/cli/ncs-main.js): on an older Node the user gets one clear line instead of an
// error from deep inside a dependency. Kept free of recent syntax and APIs so old Nodes can parse it.
import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { unsupportedNodeMessage } from '../contract/node-version.ts';
import { enableUserCompileCache } from './compile-cache.js';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};
const problem = unsupportedNodeMessage(process.version, manifest.engines.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(2);
}
// Before the bundle loads, so its compiled code is cached (the cold start's largest single cost), in
// the user's own folder; see bin/ncs.ts. A namespace import: the launcher must still load on Nodes
// without the function.
enableUserCompileCache((nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache);
// A computed specifier, so the bundler leaves the CLI bundle a separate file loaded only now.
await import(new URL('./ncs-main.js', import.meta.url).href);
