import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NCS_BIN as BIN, NCS_SOURCE_BIN, waitForReadyFile } from '../../simulator/e2e/ready-file.ts';

const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

describe('ncs CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-cli-'));

  it('ncs openapi prints JSON and writes YAML', () => {
    const json = run('openapi');
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout).openapi).toBe('3.1.0');
    const out = join(dir, 'doc.yaml');
    expect(run('openapi', '--format', 'yaml', '--out', out, '--version', '2026-06-12').status).toBe(0);
    expect(parse(readFileSync(out, 'utf8')).info.version).toBe('2026-06-12');
    const bad = run('openapi', '--format', 'xml');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/json or yaml/);
  });

  it('ncs serve answers, writes the ready file, logs requests and stops cleanly on SIGTERM', async () => {
    const ready = join(dir, 'ready.json');
    // The clone's launcher, as `npm run serve` starts it (the cached bundle of the sources once built): the
    // clone's path end to end, and its banner.
    const child = spawn(process.execPath, [NCS_SOURCE_BIN, 'serve', '--port', '0', '--ready-file', ready], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const info = await waitForReadyFile(ready);
    expect(info).toMatchObject({
      tenant: 'harbour-kitchens',
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    const res = await fetch(`${info.baseUrl}/api/public/v1/providers`, {
      headers: { authorization: `Bearer ${info.token}`, 'x-service-tenant': info.tenant },
    });
    expect(res.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The request's log line is printed as it is answered: SIGTERM once it arrived (at most 5 s; the
    // assertion below says if it never did).
    const logged = /GET \/api\/public\/v1\/providers 200 [\d.]+ms req_/;
    if (!logged.test(out))
      await Promise.race([new Promise((r) => child.stdout.on('data', () => logged.test(out) && r(true))), sleep(5000)]);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(out).toContain(`ncs sandbox listening on ${info.baseUrl}`);
    // From a clone's sources `ncs` is not on the PATH: the banner says how to call it here.
    expect(out).toContain(`  new token   npm run ncs -- token --base-url ${info.baseUrl} --client-id <id>`);
    expect(out).toContain(`a new link any time: npm run ncs -- inspector --base-url ${info.baseUrl}`);
    expect(out).toMatch(/GET \/api\/public\/v1\/providers 200 [\d.]+ms req_/);
  });

  it('ncs serve --stream-limit caps open streams per feed and refuses a malformed value', async () => {
    const ready = join(dir, 'ready-streams.json');
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--quiet', '--stream-limit', '1/5', '--ready-file', ready],
      { stdio: 'ignore' },
    );
    const controller = new AbortController();
    try {
      const info = await waitForReadyFile(ready);
      const url = `${info.baseUrl}/api/public/v1/stream`;
      const first = await fetch(url, { signal: controller.signal });
      expect(first.status).toBe(200);
      const second = await fetch(url);
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('5');
    } finally {
      controller.abort();
      child.kill('SIGTERM');
    }
    const bad = run('serve', '--port', '0', '--stream-limit', '10/5');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--stream-limit must look like/);
  });

  it('ncs serve --fixtures refuses an invalid file with the reasons', () => {
    const file = join(dir, 'bad-fixtures.json');
    writeFileSync(file, JSON.stringify({ name: 'x', providers: [] }));
    const res = run('serve', '--port', '0', '--fixtures', file);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/fixtures .* are not valid/);
    expect(res.stderr).toMatch(/providers/);
  });
});
