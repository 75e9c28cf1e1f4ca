// The file `ncs serve --ready-file <path>` writes once it listens: where to reach the simulator and a
// token to do it. One schema for the writer (ncs serve), the CLI's readers (ncs sandbox, ncs webhook
// listen), the tests and users' scripts (exported: `import { waitForReadyFile } from 'ncs-sandbox'`).
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

export const ReadyFile = z.object({
  baseUrl: z.url().describe('The main address, e.g. http://127.0.0.1:4010'),
  altBaseUrl: z.url().optional().describe("The interface's alternate address (--alt-port)"),
  token: z.string().min(1).describe("A bearer token for the fixtures' default client"),
  tenant: z.string().min(1).describe("That client's first tenant (x-service-tenant)"),
  adminToken: z.string().min(1).describe('The control-plane token'),
  inspectorUrl: z.url().optional().describe('The inspector page with its one-time login token'),
});
export type ReadyFile = z.infer<typeof ReadyFile>;

/** A ready file that cannot be read or does not match the schema; the message names the file. */
export class ReadyFileError extends Error {
  override readonly name = 'ReadyFileError';
}

/**
 * Reads and checks a ready file.
 * @example const { baseUrl, token, tenant } = readReadyFile('/tmp/ncs.json');
 */
export function readReadyFile(path: string): ReadyFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ReadyFileError(`cannot read the ready file ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ReadyFileError(`the ready file ${path} is not JSON (ncs serve --ready-file writes it)`);
  }
  const parsed = ReadyFile.safeParse(json);
  if (!parsed.success)
    throw new ReadyFileError(
      `the ready file ${path} is not one ncs serve wrote: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/**
 * Waits until `ncs serve` has written its ready file (the server listens then), and reads it.
 * @example const ready = await waitForReadyFile('/tmp/ncs.json', { timeoutMs: 10_000 });
 */
export async function waitForReadyFile(path: string, opts: { timeoutMs?: number } = {}): Promise<ReadyFile> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new ReadyFileError(`the ready file ${path} never appeared`);
    await sleep(25);
  }
  // Written aside and renamed, so a file that exists is whole; a stale one from another run may not match.
  return readReadyFile(path);
}

/**
 * Writes a ready file: owner-only (it holds the admin and an access token), whole at once (written
 * aside, then renamed). Undefined members are left out.
 * @example writeReadyFile('/tmp/ncs.json', { baseUrl, token, tenant, adminToken });
 */
export function writeReadyFile(path: string, info: ReadyFile): void {
  const aside = `${path}.${process.pid}.tmp`;
  rmSync(aside, { force: true });
  writeFileSync(aside, JSON.stringify(ReadyFile.parse(info), null, 2), { mode: 0o600, flag: 'wx' });
  renameSync(aside, path);
}
