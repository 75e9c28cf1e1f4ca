#!/usr/bin/env node
// The ncs command from the sources of a clone (`node bin/ncs.ts`). `npm run serve` and `npm run ncs --`
// start bin/ncs.mjs, which this file loads (and which runs the cached bundle of these sources when there
// is one): a `.ts` entry makes Node load its TypeScript stripper before the first line runs (60-80 ms of
// CPU), which the JavaScript entry avoids. This one file is CommonJS (bin/package.json): a Node that
// cannot run TypeScript (Node 20, or 22 before 22.18) refuses a `.ts` file of an ES module scope with a
// stack trace, but runs a CommonJS `.ts` file as JavaScript, so bin/ncs.mjs gets to say which Node is
// needed.
import('./ncs.mjs');
