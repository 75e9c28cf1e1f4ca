#!/usr/bin/env node
// The ncs command from the sources of a clone (`node bin/ncs.ts`, `npm run ncs --`). This one file is
// CommonJS in plain JavaScript (bin/package.json), the program itself is ES modules in TypeScript
// (bin/cli/): a Node that cannot run TypeScript (Node 20, or 22 before 22.18) refuses a `.ts` file of
// an ES module scope before running a line of it, with a stack trace; a CommonJS `.ts` file it runs as
// JavaScript, so this check gets to say which Node is needed. The installed package has its own
// launcher (simulator/package/cli-launcher.ts) with the same check.
{
  const { engines } = require('../package.json');
  const notSupported = () =>
    `ncs needs Node.js ${engines.node}; this is Node.js ${process.version}, which cannot run the sources. ` +
    'In a clone, run it through npm, which uses the Node the project pins: npm run ncs -- <command>\n';
  // Type stripping is what lets Node run the sources; without it nothing past this file can load.
  if (!process.features.typescript) {
    process.stderr.write(notSupported());
    process.exit(2);
  }
  import('../simulator/contract/node-version.ts').then(({ nodeSatisfies }) => {
    if (!nodeSatisfies(process.version, engines.node)) {
      process.stderr.write(notSupported());
      process.exit(2);
    }
    return import('./cli/main.ts');
  });
}
