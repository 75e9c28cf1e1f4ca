// The bundled `ncs` (what the package installs) serves and runs the kit, built fresh from the
// sources: a runtime file read or a lazy import the bundle breaks shows up here, in `npm test`,
// not only in the slower install check. The bundle is the one the globalSetup built with `npm run
// build`'s esbuild step from the sources as they are now, laid out as an installed package
// (simulator/test-support/cli-bundle-setup.ts), and the one the CLI suites start: here it is compared
// with the sources.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NCS_BIN as bin, NCS_SOURCE_BIN as sourceBin, waitForReadyFile } from '../e2e/ready-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'ncs-cli-bundle-'));
/** The TypeScript sources themselves: bin/ncs.mjs would otherwise start this very bundle (source-package.js). */
const fromSources = { ...process.env, NCS_FROM_SOURCES: '1' };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bundled ncs command', () => {
  it('serves the built-in fixtures and passes the kit discovery checks against itself', async () => {
    const ready = join(dir, 'ready.json');
    const server = spawn(process.execPath, [bin, 'serve', '--port', '0', '--quiet', '--ready-file', ready], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    server.stderr.on('data', (c) => (stderr += c));
    server.stdout.on('data', (c) => (stdout += c));
    try {
      const { baseUrl, token, tenant, inspectorUrl } = await waitForReadyFile(ready);
      // Installed, the command is `npx ncs` (the banner of the sources says `npm run ncs --`).
      if (!stdout.includes('new token'))
        await Promise.race([
          new Promise((r) => server.stdout.on('data', () => stdout.includes('new token') && r(true))),
          sleep(5000),
        ]);
      expect(stdout).toContain(`  new token   npx ncs token --base-url ${baseUrl} --client-id <id>`);
      const res = await fetch(`${baseUrl}/api/public/v1/providers`, {
        headers: { authorization: `Bearer ${token}`, 'x-service-tenant': tenant },
      });
      expect(res.status).toBe(200);
      // The inspector's page is read from files beside the bundle (dist/cli/assets): logged in by the
      // printed link, its cookie opens the page and its scripts.
      const login = await fetch(inspectorUrl ?? '', { redirect: 'manual' });
      expect(login.status).toBe(303);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      for (const [path, type] of [
        ['', 'text/html'],
        ['app.js', 'text/javascript'],
        ['style.css', 'text/css'],
      ] as const) {
        const asset = await fetch(`${baseUrl}/_sandbox/inspector/${path}`, { headers: { cookie } });
        expect([path, asset.status, asset.headers.get('content-type')]).toEqual([
          path,
          200,
          expect.stringContaining(type),
        ]);
      }
      // A generated check too: its probes are drawn with fast-check, which the bundle requires from
      // the installed dependency rather than carrying a copy.
      const kit = spawnSync(
        process.execPath,
        [
          bin,
          'conformance',
          'run',
          '--base-url',
          baseUrl,
          '--tenant',
          tenant,
          '--grep',
          '^(discovery\\.|generated\\.probes-check-capability$)',
        ],
        { encoding: 'utf8', env: { ...process.env, NCS_TOKEN: token } },
      );
      expect(kit.status, kit.stdout + kit.stderr).toBe(0);
      expect(kit.stdout).toMatch(/discovery: [1-9]\d* passed/);
      expect(kit.stdout).toMatch(/generated: 1 passed/);
    } finally {
      server.kill('SIGTERM');
    }
    expect(stderr).toBe('');
  }, 60_000);

  it("carries zod's English locale only (the ~50 others are a quarter of the bundle, and nothing configures one)", () => {
    const bundle = readFileSync(join(dirname(bin), 'ncs-main.cjs'), 'utf8');
    // English, registered by zod's schemas themselves; German, French and Spanish as three of the others.
    expect(bundle).toContain('Invalid input');
    for (const other of ['ISO-Uhrzeit', 'date et heure ISO', 'fecha y hora ISO']) expect(bundle).not.toContain(other);
  });

  it('writes the same YAML document as the source CLI (yaml is required from the installed dependency)', () => {
    const args = ['openapi', '--format', 'yaml'];
    const bundled = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
    const source = spawnSync(process.execPath, [sourceBin, ...args], { encoding: 'utf8', env: fromSources });
    expect(bundled.stderr).toBe('');
    expect(bundled.stdout).toMatch(/^openapi: 3\.1\.0\n/);
    expect([bundled.status, bundled.stdout]).toEqual([source.status, source.stdout]);
  });

  it('answers a usage error exactly as the source CLI does', () => {
    const args = ['serve', '--no-such-option'];
    const bundled = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
    const source = spawnSync(process.execPath, [sourceBin, ...args], { encoding: 'utf8', env: fromSources });
    expect(bundled.stderr).toMatch(/no-such-option/);
    expect([bundled.status, bundled.stderr]).toEqual([source.status, source.stderr]);
  });
});
