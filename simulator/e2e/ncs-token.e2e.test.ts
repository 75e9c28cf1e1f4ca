import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ncs } from './cli-process.ts';
import { NCS_BIN as BIN, waitForReadyFile } from './ready-file.ts';

describe('ncs token and ncs serve --rate-limit-preset low', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-token-'));
  const ready = join(dir, 'ready.json');
  let server: ReturnType<typeof spawn>;
  let out = '';
  let info: { baseUrl: string; tenant: string };

  beforeAll(async () => {
    server = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--ready-file', ready, '--rate-limit-preset', 'low'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stdout!.on('data', (c) => (out += c));
    info = await waitForReadyFile(ready);
  });
  afterAll(async () => {
    const exit = new Promise((resolve) => server.on('exit', resolve));
    server.kill('SIGTERM');
    await exit;
  });

  it('honours NCS_BASE_URL, also when it ends in /api/public/v1', async () => {
    const res = await ncs(
      ['token', '--client-id', 'catalog-reader', '--client-secret', 'cr-sandbox-secret-1a2b3c4d5e6f7081'],
      { NCS_BASE_URL: `${info.baseUrl}/api/public/v1` },
    );
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim()).toMatch(/^ncs_at_[A-Za-z0-9_-]+$/);
  });

  it('says "cannot reach <url>: <reason>" and exits 2 when nothing listens', async () => {
    const res = await ncs(['token', '--base-url', 'http://127.0.0.1:1', '--client-id', 'a', '--client-secret', 'b']);
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toMatch(/^ncs token: cannot reach http:\/\/127\.0\.0\.1:1: \S/);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('prints a token usable with curl-style calls; the low preset shows in headers and 429s', async () => {
    const res = await ncs([
      'token',
      '--base-url',
      info.baseUrl,
      '--client-id',
      'catalog-reader',
      '--client-secret',
      'cr-sandbox-secret-1a2b3c4d5e6f7081',
      '--scope',
      'catalog:read',
    ]);
    expect(res.status, res.stderr).toBe(0);
    const token = res.stdout.trim();
    expect(token).toMatch(/^ncs_at_[A-Za-z0-9_-]+$/);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      last = await fetch(`${info.baseUrl}/api/public/v1/providers`, {
        headers: { authorization: `Bearer ${token}`, 'x-service-tenant': 'harbour-kitchens' },
      });
      expect(last.headers.get('x-ratelimit-limit')).toBe('5');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(out).toContain('rate limit  5 calls per 10 s');
    expect(out).toContain('/oauth/token');
  });

  it('--json prints the whole answer; a wrong secret exits 2 without echoing it', async () => {
    const json = await ncs([
      'token',
      '--base-url',
      info.baseUrl,
      '--client-id',
      'svc-harbour-reporting',
      '--client-secret',
      'svc-hk-reporting-2d4f6a8c0e1b3d5f',
      '--json',
    ]);
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'catalog:read connections:read audit:read',
    });
    const bad = await ncs([
      'token',
      '--base-url',
      info.baseUrl,
      '--client-id',
      'harbour-backend',
      '--client-secret',
      'definitely-wrong-secret',
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/invalid_client/);
    expect(bad.stderr + bad.stdout).not.toContain('definitely-wrong-secret');
    expect(out).not.toContain('definitely-wrong-secret');
    expect(out).not.toContain('svc-hk-reporting-2d4f6a8c0e1b3d5f');
  });
});

describe('ncs openapi into a closed pipe', () => {
  it('`ncs openapi | head -c 10` ends quietly instead of crashing with EPIPE', async () => {
    const res = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" openapi --format yaml | head -c 10`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      child.on('exit', (status) => resolve({ status, stdout, stderr }));
    });
    expect(res.stdout).toHaveLength(10);
    expect(res.stderr).not.toMatch(/EPIPE|Error/);
  });
});
