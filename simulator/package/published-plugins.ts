// The esbuild plugins of the published `ncs` bundle only (build.ts passes them with `selfTest: false`): a clone's
// bundle of its own sources keeps the kit and its violations inside, as it has no dist/conformance beside it.
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The kit's violations (conformance/violations/) replaced by a module whose `violationOptions` says where they
 * run: `ncs serve --violation` from the published package answers with that one line (exit 2), not a crash.
 */
export const withoutViolations: Plugin = {
  name: 'without-violations',
  setup(b) {
    b.onResolve({ filter: /violations\/index\.ts$/ }, (args) => ({ path: args.path, namespace: 'no-violations' }));
    b.onLoad({ filter: /.*/, namespace: 'no-violations' }, () => ({
      contents: `export function violationOptions() { throw new Error(${JSON.stringify(
        "--violation is the conformance kit's self-test and runs from a clone of the repository (npm run serve -- --violation <name>); the published package leaves the violations out",
      )}); }`,
      loader: 'js',
    }));
  },
};

/**
 * The published bundle leaves the conformance kit out: `ncs conformance`, `ncs conformance list`,
 * `ncs client-report` and `ncs webhook listen` load it when they run (their imports of it are already lazy)
 * from dist/conformance/ beside the bundle, the package's library copy of it. The tarball then carries the
 * kit once, not twice (about 120 KB of its 1 MB budget), and `ncs serve` never loads it.
 */
export const kitFromLibrary: Plugin = {
  name: 'kit-from-library',
  setup(b) {
    b.onResolve({ filter: /conformance\/.*\.ts$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || /violations\//.test(args.path)) return undefined;
      const file = relative(ROOT, resolve(dirname(args.importer), args.path));
      if (!file.startsWith('conformance/')) return undefined;
      // Relative to dist/cli/ncs-main.cjs, whose require() resolves against its own file (bundle-runner.js).
      return { path: `../${file.replace(/\.ts$/, '.js')}`, external: true };
    });
  },
};
