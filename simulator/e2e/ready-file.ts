import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { type ReadyFile, waitForReadyFile as waitFor } from '../contract/ready-file.ts';

// Which `ncs` a test starts, decided by what the test is about:
// - NCS_BIN, the CLI's behaviour (commands, options, output, exit codes, signals, servers): the bundled
//   command as the package installs it (dist/cli/ncs.js), built from the sources as they are by the
//   globalSetup simulator/test-support/cli-bundle-setup.ts at the start of every `vitest run`, also of
//   one file (reused from the user's cache while no source changed). It is ready to serve on ~0.4 s of
//   CPU where the sources need 0.6-0.8 s.
// - NCS_SOURCE_BIN, the clone's launcher (bin/ncs.mjs, what `npm run serve` and `npm run ncs --` start):
//   the Node version message, the compile cache, the modules a start loads, the cached bundle of the
//   clone's sources it runs when one matches them (NCS_FROM_SOURCES=1 runs the TypeScript sources), and
//   the clone's path end to end once (the serve test of bin/cli/ncs.e2e.test.ts: start, answer, banner,
//   SIGTERM).
// - NCS_TS_BIN, the `.ts` entry itself (`node bin/ncs.ts`), only where that entry is the subject.
// simulator/package/cli-bundle.e2e.test.ts proves the two answer the same.

/** The bundled ncs command of this test run (see above). */
export const NCS_BIN: string = bundledNcs();
/** The clone's launcher, as `npm run serve` / `npm run ncs --` start it (the sources, or their cached bundle). */
export const NCS_SOURCE_BIN = fileURLToPath(new URL('../../bin/ncs.mjs', import.meta.url));
/** `node bin/ncs.ts`: only for tests of that entry. */
export const NCS_TS_BIN = fileURLToPath(new URL('../../bin/ncs.ts', import.meta.url));

function bundledNcs(): string {
  const bin = inject('ncsBundle');
  if (!bin) throw new Error('no ncs bundle: run the tests with vitest.config.ts (its globalSetup builds it)');
  return bin;
}

/** What `ncs serve --ready-file` writes once it listens (the schema lives in contract/ready-file.ts). */
export type ReadyInfo = ReadyFile;
/**
 * How long a test waits for `ncs serve` to start. A start from source takes about half a second on an
 * idle machine, but over 10 s (the library's default) was seen with both cores busy: the tests wait
 * longer, so a loaded machine makes them slower, not red.
 */
export const TEST_START_TIMEOUT_MS = 45_000;

/**
 * waitForReadyFile with the tests' start timeout.
 * @example const info = await waitForReadyFile(join(dir, 'ready.json'));
 */
export const waitForReadyFile = (path: string, opts: { timeoutMs?: number } = {}) =>
  waitFor(path, { timeoutMs: TEST_START_TIMEOUT_MS, ...opts });
