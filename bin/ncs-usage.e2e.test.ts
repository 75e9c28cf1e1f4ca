import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';
import { NCS_BIN as BIN } from '../simulator/e2e/ready-file.ts';

function ncs(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: withoutNcsSettings(),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The environment without NCS_* settings, so only the arguments count. */
function withoutNcsSettings(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NCS_')));
}

/** A loopback port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const oneLine = (text: string) => text.trim().split('\n').length === 1;

describe('ncs usage errors: exit 2 with one clear line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-usage-'));
  const notAudit = join(dir, 'not-audit.json');
  writeFileSync(notAudit, JSON.stringify({ hello: 'world' }));

  it.each([
    [['serve', '--bogus'], /^ncs serve: unknown option '--bogus' \(see ncs serve --help\)$/],
    [['serve', '--port', 'abc'], /^ncs: --port takes a whole number from 0 to 65535 \(got "abc"\)$/],
    [['token', '--client-id', 'a'], /^ncs token: required option '--client-secret <secret>' not specified/],
    [['conformance', 'run', '--bogus'], /^ncs conformance run: unknown option '--bogus'/],
    [['webhook', 'verify', '--header', 'x', '--nope'], /^ncs webhook verify: unknown option '--nope'/],
    [['bogus'], /^ncs: unknown command 'bogus'/],
    [['audit', 'verify', notAudit], /^not verifiable: expected a GET \/audit-log response/],
  ])('ncs %j', async (args, message) => {
    const res = await ncs(...args);
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr.trim()).toMatch(message);
    expect(oneLine(res.stderr), res.stderr).toBe(true);
    expect(res.stderr).not.toMatch(/\n\s+at |Usage:/);
  });
});

describe('ncs against an address nothing listens on', () => {
  let base = '';
  beforeAll(async () => {
    base = `http://127.0.0.1:${await closedPort()}`;
  });

  it.each([
    ['token', (b: string) => ['token', '--base-url', b, '--client-id', 'a', '--client-secret', 'b']],
    ['sandbox', (b: string) => ['sandbox', 'reset', '--base-url', b, '--admin-token', 'x']],
    ['webhook listen', (b: string) => ['webhook', 'listen', '--base-url', b, '--token', 't', '--tenant', 'x']],
    ['conformance run', (b: string) => ['conformance', 'run', '--base-url', b, '--token', 't', '--tenant', 'x']],
  ])('%s says "cannot reach <url>: <reason>" and exits 2', async (_name, args) => {
    const res = await ncs(...args(base));
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr.trim()).toMatch(
      new RegExp(`^ncs(?: conformance)?: cannot reach ${base.replace(/[.:/]/g, '\\$&')}(?:/api/public/v1)?: \\S`),
    );
    expect(res.stderr).not.toMatch(/fetch failed/);
  });
});
