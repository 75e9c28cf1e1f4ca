// What `ncs serve` loads before its first answer (issue 23 item 27: the cold start). Each module is CPU
// at every start; these are the ones the first answer does not need and that once crept back in.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { NCS_BIN, waitForReadyFile } from '../../simulator/e2e/ready-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'ncs-start-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Preloaded into the server: notes every module loaded through the ESM loader and, on SIGUSR2, writes
// them with Node's own internal modules (process.moduleLoadList) to LOADED_OUT.
const HOOK = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = [];
registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
process.on('SIGUSR2', () => writeFileSync(process.env.LOADED_OUT, [...seen, ...process.moduleLoadList].join('\\n')));
`;

/** Modules loaded by `ncs serve` from spawn until after its first answer of GET `path` (default the self-description). */
async function loadedUntilFirstAnswer(path = '/api/public/v1'): Promise<string[]> {
  const ready = join(dir, `ready-${Math.random()}.json`);
  const out = join(dir, `loaded-${Math.random()}.txt`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(HOOK)}`,
      NCS_BIN,
      'serve',
      '--port',
      '0',
      '--quiet',
      '--ready-file',
      ready,
    ],
    { env: { ...process.env, LOADED_OUT: out }, stdio: 'ignore' },
  );
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const { baseUrl } = await waitForReadyFile(ready);
    const res = await fetch(`${baseUrl}${path}`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    child.kill('SIGUSR2');
    for (let i = 0; i < 200 && !existsSync(out); i++) await sleep(25);
    return readFileSync(out, 'utf8').split('\n');
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

it('ncs serve answers its first request without Node’s bundled undici (an ES import of node:http loads it)', async () => {
  const loaded = await loadedUntilFirstAnswer();
  expect(loaded.some((m) => m.endsWith('/simulator/app/serve.ts'))).toBe(true); // the hook saw the start
  expect(loaded.filter((m) => m.includes('internal/deps/undici'))).toEqual([]);
});
