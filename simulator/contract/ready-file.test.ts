import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as ncs from '../index.ts';
import { ReadyFileError, readReadyFile, waitForReadyFile, writeReadyFile } from './ready-file.ts';

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
const tmp = () => {
  dir = mkdtempSync(join(tmpdir(), 'ncs-ready-'));
  return dir;
};
const INFO = { baseUrl: 'http://127.0.0.1:4010', token: 'ncs_at_x', tenant: 't1', adminToken: 'ncs_admin_x' };

describe('ready file', () => {
  it('is written owner-only and read back through one schema, exported from the package', async () => {
    const file = join(tmp(), 'ready.json');
    writeReadyFile(file, { ...INFO, altBaseUrl: undefined });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readReadyFile(file)).toEqual(INFO);
    expect(await ncs.waitForReadyFile(file)).toEqual(INFO);
    expect(ncs.ReadyFile.safeParse(INFO).success).toBe(true);
  });

  it('names the file and the member when a file is not one ncs serve wrote', async () => {
    const file = join(tmp(), 'ready.json');
    writeFileSync(file, JSON.stringify({ baseUrl: 'not a url', token: 'x' }));
    expect(() => readReadyFile(file)).toThrow(ReadyFileError);
    expect(() => readReadyFile(file)).toThrow(/ready\.json is not one ncs serve wrote: baseUrl/);
    writeFileSync(file, '{');
    expect(() => readReadyFile(file)).toThrow(/is not JSON/);
    await expect(waitForReadyFile(join(tmp(), 'never.json'), { timeoutMs: 50 })).rejects.toThrow(/never appeared/);
  });
});
