import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

/** The ncs command, for tests that run it as a subprocess. */
export const NCS_BIN = fileURLToPath(new URL('../../bin/ncs.ts', import.meta.url));

/** What `ncs serve --ready-file` writes once it listens. */
export interface ReadyInfo {
  baseUrl: string;
  altBaseUrl?: string;
  token: string;
  tenant: string;
  adminToken: string;
  inspectorUrl?: string;
}

/** Waits (bounded: about 10 s) until `ncs serve` has written its ready file, and reads it. */
export async function waitForReadyFile(file: string): Promise<ReadyInfo> {
  for (let i = 0; i < 400 && !existsSync(file); i++) await sleep(25);
  // The file may be seen while it is still being written: retry the parse briefly.
  for (let i = 0; i < 40; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ReadyInfo;
    } catch {
      await sleep(25);
    }
  }
  throw new Error(`ready file ${file} never appeared`);
}
