// `npm run build` (also run by `npm pack`/`npm publish` through prepack): the installable package.
//   dist/simulator/, dist/conformance/  the library as JavaScript (without comments) with .d.ts (tsc, tsconfig.build.json)
//   dist/cli/ncs-main.cjs               the whole CLI in one file (esbuild), so `ncs serve` starts
//                                       without resolving hundreds of modules; CommonJS, so that a code
//                                       cache of what a start ran can be kept (bundle-runner.js)
//   dist/cli/ncs.js                     the `ncs` bin: checks the Node version, then runs ncs-main.cjs
// A clone runs from its sources (bin/ncs.mjs), through a bundle of them that only the esbuild step
// (bundleCli, the same options) builds into the user's cache (source-package.js); `npm test` runs the CLI
// suites on that package (simulator/test-support/cli-bundle-setup.ts).
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { PREBUILT_MODULE, prebuiltDocumentsModule } from './prebuilt.ts';
import { pruneDeclarations } from './prune-declarations.ts';
import { kitFromLibrary, withoutViolations } from './published-plugins.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = join(ROOT, 'dist');

/** `import { fetch } from 'undici'` -> the lazy stand-in; `import('undici')` stays a runtime import. */
const lazyUndici: Plugin = {
  name: 'lazy-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      args.kind === 'dynamic-import'
        ? { path: 'undici', external: true }
        : { path: join(ROOT, 'simulator/package/lazy-undici.ts') },
    );
  },
};

/**
 * @seriousme/openapi-schema-validator reads its JSON schemas next to its own file
 * (`new URL(file, import.meta.url)`); bundled, that URL would be the bundle's. Point it at the
 * installed package instead (resolved, not loaded; `__ncsResolve` is the bundle's banner's).
 */
const schemaValidatorFiles: Plugin = {
  name: 'schema-validator-files',
  setup(b) {
    b.onLoad({ filter: /@seriousme[\\/]openapi-schema-validator[\\/]index\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) throw new Error(`${args.path}: expected import.meta.url`);
      const contents = source.replaceAll('import.meta.url', '__ncsResolve("@seriousme/openapi-schema-validator")');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * node:http and node:https through require() in the bundle, whichever module imports them: an ES
 * import builds the module's facade by reading every export, which loads Node's internal undici
 * through node:http's lazy getters (~25 ms of each start; see simulator/adapters/node-server.ts).
 */
const httpViaRequire: Plugin = {
  name: 'http-via-require',
  setup(b) {
    b.onResolve({ filter: /^node:https?$/ }, (args) =>
      args.namespace === 'http-via-require'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'http-via-require' },
    );
    b.onLoad({ filter: /.*/, namespace: 'http-via-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * Dependencies used by few commands stay the installed packages they are (package.json dependencies)
 * instead of copies in the bundle: each import of one becomes a require() of the installed package,
 * run when the module importing it first runs (yaml: on the first YAML document asked for; fast-check:
 * by the kit's generated layer, which runs only when a command uses the kit), so `ncs serve` never
 * loads them and the tarball is ~95 KB smaller.
 */
const INSTALLED_AT_RUNTIME = /^(fast-check|yaml)$/;
const installedAtRuntime: Plugin = {
  name: 'installed-at-runtime',
  setup(b) {
    b.onResolve({ filter: INSTALLED_AT_RUNTIME }, (args) =>
      args.namespace === 'installed-at-runtime'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'installed-at-runtime' },
    );
    b.onLoad({ filter: /.*/, namespace: 'installed-at-runtime' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * zod re-exports every one of its ~50 locales (`z.locales`, `z.core.locales`: 262 KB of the bundle,
 * ~60 KB of the tarball); nothing here configures one, and English is registered by zod's schemas
 * themselves. In the bundle the namespace holds English only (`z.locales.en` still works); the library
 * (dist/simulator, dist/conformance) imports the installed zod whole, as users' code does.
 */
const englishZodLocales: Plugin = {
  name: 'english-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '../locales/en.js'), namespace: 'english-zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'english-zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * openapi-backend requires three modules that the way the simulator runs it does not need (simulator/core/
 * router.ts: `quick: true` and a document given as an object): its 3.0 definition validator (run only
 * without `quick`), its $ref parser (it dereferences only a document given as a file name or without
 * `quick`, and brings a YAML parser of its own; `quick` init still calls its `parse`, unawaited, which
 * for an object is the object) and its response mocker (mockResponseForOperation). In the bundle each is
 * a stand-in that throws if it is ever called otherwise, ~150 KB smaller (~40 KB of the tarball); the
 * library (dist/simulator) imports the installed openapi-backend whole. And `qs`: its router parses a query
 * string with it only when the request's query is not an object, and the simulator's always is (PlainRequest).
 */
const OPENAPI_BACKEND_UNUSED = /^(openapi-schema-validator|\.\/refparser|mock-json-schema|qs)$/;
const openapiBackendUnused: Plugin = {
  name: 'openapi-backend-unused',
  setup(b) {
    b.onResolve({ filter: OPENAPI_BACKEND_UNUSED }, (args) =>
      /[\\/]openapi-backend[\\/][^\\/]+\.js$/.test(args.importer)
        ? { path: args.path, namespace: 'openapi-backend-unused' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'openapi-backend-unused' }, (args) => ({
      contents: unusedStandIn(args.path),
      loader: 'js',
    }));
  },
};

/** A module whose every export throws, naming the module, should a later version start calling it. */
function unusedStandIn(name: string): string {
  const fail = `() => { throw new Error(${JSON.stringify(`ncs bundle: ${name} (in openapi-backend) is not bundled; see simulator/package/build.ts`)}); }`;
  if (name === './refparser') {
    // parse(object) resolves to that object (json-schema-ref-parser's answer for a schema given as one).
    const parse = `async (doc) => { if (doc && typeof doc === 'object') return doc; fail(); }`;
    return `const fail = ${fail}; module.exports = { parse: ${parse}, dereference: fail, resolve: fail };`;
  }
  return `const fail = ${fail}; module.exports = new Proxy(function () { fail(); }, { get: (t, k) => k === '__esModule' ? false : fail, construct: fail });`;
}

/** The OpenAPI documents generated now, once, instead of at every start (see prebuilt.ts). */
const prebuiltDocuments: Plugin = {
  name: 'prebuilt-documents',
  setup(b) {
    b.onLoad({ filter: PREBUILT_MODULE }, () => ({ contents: prebuiltDocumentsModule(), loader: 'js' }));
  },
};

/** Builds dist/ from scratch. @example await buildPackage() */
export async function buildPackage(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true });
  // Declarations keep their doc comments (editors show them); the JavaScript ships without comments
  // (~85 KB of the tarball), so tsc runs twice.
  const tsc = (...args: string[]) =>
    execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'tsconfig.build.json'), ...args], {
      stdio: 'inherit',
    });
  tsc('--emitDeclarationOnly');
  tsc('--declaration', 'false', '--removeComments');
  // Only the declarations the package's entry points reach are ever read (prune-declarations.ts).
  pruneDeclarations(DIST, declarationEntries());
  // The library (dist/) generates the document once a process, on first use (about 30 ms), as the sources do:
  // only the `ncs` bundle, whose start is budgeted, carries it prebuilt (one 90 KB copy in the tarball, not two).
  // The inspector's page (HTML, CSS, scripts for the browser) is read from beside the module serving it.
  cpSync(INSPECTOR_ASSETS, join(DIST, 'simulator/inspector/assets'), { recursive: true });
  // The bundle finds the same copy (static-assets.ts looks beside itself, then in ../simulator/inspector/):
  // one copy in the tarball, not two.
  // The kit's deliberate violations (`ncs serve --violation`) are its self-test, run from a clone: left out of
  // the published bundle (about 30 KB of the tarball, which has a 1 MB budget).
  await bundleCli(join(DIST, 'cli'), { assets: false, selfTest: false });
}

/** The .d.ts of every `types` in package.json's exports. */
function declarationEntries(): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  return Object.values(manifest.exports).flatMap((e) =>
    typeof e === 'object' && e.types ? [join(ROOT, e.types)] : [],
  );
}

/** The inspector's static files, which simulator/inspector/static-assets.ts reads from `./assets/`. */
const INSPECTOR_ASSETS = join(ROOT, 'simulator/inspector/assets');

/**
 * The `ncs` command into `outDir`: ncs-main.cjs (the bundle), ncs.js (the launcher, which reads
 * `../../package.json`, as the bundle reads `../../fixtures/`) and assets/ (the inspector's page, which
 * the bundle reads from beside itself; `assets: false` where dist/simulator/inspector/assets has it).
 * @example await bundleCli(join(DIST, 'cli'))
 */
export async function bundleCli(
  outDir: string,
  opts: { assets?: boolean; sourcemap?: boolean; metafile?: string; selfTest?: boolean } = {},
): Promise<void> {
  const main = await build({
    // program.ts, not main.ts: the launchers turn the compile cache on, and CommonJS has no top-level await.
    entryPoints: [join(ROOT, 'bin/cli/program.ts')],
    outfile: join(outDir, 'ncs-main.cjs'),
    bundle: true,
    platform: 'node',
    // CommonJS, run by bundle-runner.js through vm.Script, which can keep a code cache of the functions a
    // start ran (an ES module's cache holds its top-level code only): a start's CPU -40 %.
    format: 'cjs',
    target: 'node22',
    // The bundle's module URL, as the sources read it (fixtures, the inspector's assets, package.json).
    define: { 'import.meta.url': '__ncsUrl' },
    // import() of a package or built-in becomes a require() when it runs: a script run by vm.Script has no
    // ES module loader of its own (undici, redis and node: built-ins are all CommonJS-loadable).
    supported: { 'dynamic-import': false },
    minify: true,
    // No keepNames: the errors users see name themselves (every error class sets its `name`), a stack
    // frame of a one-line minified file is no help without a source map anyway, and keeping every function's
    // name cost 30 KB of the tarball, which is over its 1 MB budget with it.
    keepNames: false,
    // Only for profiling a start (a profile's positions mapped back to the sources); never shipped.
    sourcemap: opts.sourcemap ? 'linked' : false,
    banner: {
      js: [
        "const __ncsUrl = require('node:url').pathToFileURL(__filename).href;",
        "const __ncsResolve = (s) => require('node:url').pathToFileURL(require.resolve(s)).href;",
      ].join(' '),
    },
    plugins: [
      lazyUndici,
      schemaValidatorFiles,
      prebuiltDocuments,
      httpViaRequire,
      installedAtRuntime,
      englishZodLocales,
      openapiBackendUnused,
      ...(opts.selfTest === false ? [withoutViolations, kitFromLibrary] : []),
    ],
    // The Redis client is an optional dependency, imported only for `--store redis://`: never bundled,
    // so the default `ncs serve` starts without it (and without it installed).
    external: ['redis'],
    // Only for measuring what the bundle is made of (which inputs, how many bytes); never shipped.
    metafile: Boolean(opts.metafile),
    logLevel: 'warning',
  });
  if (opts.metafile) writeFileSync(opts.metafile, JSON.stringify(main.metafile));
  await build({
    entryPoints: [join(ROOT, 'simulator/package/cli-launcher.ts')],
    outfile: join(outDir, 'ncs.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    // The launcher must parse on old Nodes to tell their users which one they need.
    target: 'node18',
    logLevel: 'warning',
  });
  chmodSync(join(outDir, 'ncs.js'), 0o755);
  if (opts.assets ?? true) cpSync(INSPECTOR_ASSETS, join(outDir, 'assets'), { recursive: true });
}

if (import.meta.main) await buildPackage();
