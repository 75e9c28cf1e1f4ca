import { fileURLToPath } from 'node:url';
import { type ReadyFile, waitForReadyFile as waitFor } from '../contract/ready-file.ts';

/** The ncs command, for tests that run it as a subprocess. */
export const NCS_BIN = fileURLToPath(new URL('../../bin/ncs.ts', import.meta.url));

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
