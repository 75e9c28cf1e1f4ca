import { fileURLToPath } from 'node:url';
import type { ReadyFile } from '../contract/ready-file.ts';

/** The ncs command, for tests that run it as a subprocess. */
export const NCS_BIN = fileURLToPath(new URL('../../bin/ncs.ts', import.meta.url));

/** What `ncs serve --ready-file` writes once it listens (the schema lives in contract/ready-file.ts). */
export type ReadyInfo = ReadyFile;
export { waitForReadyFile } from '../contract/ready-file.ts';
