// Round-8 attacks on `ncs serve` flags with hostile values (a careless user's or a script's): each is
// refused at start with exit 2 and one line naming the flag, no stack, no secret echoed; or, where the
// value is odd but valid, the server starts and serves it. Loopback only (never --host other than it).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NCS_BIN } from '../ready-file.ts';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis } from '../redis-server.ts';

const tmp = mkdtempSync(join(tmpdir(), 'ncs-r8-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const STACK = /\n\s+at |node:internal|TypeError|RangeError|SyntaxError|ERR_/;
let n = 0;

/** Runs `ncs serve` with `args`; stops it (SIGTERM) once its ready file appears or after `ms`. */
function serve(args: string[], ms = 12_000): Promise<{ code: number | null; stderr: string; ready?: any }> {
  const readyFile = join(tmp, `ready-${n++}.json`);
  const child = spawn(
    process.execPath,
    [NCS_BIN, 'serve', '--port', '0', '--quiet', '--no-inspector', '--ready-file', readyFile, ...args],
    {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdout.on('data', () => undefined);
  let ready: any;
  const poll = setInterval(() => {
    if (ready === undefined && existsSync(readyFile)) {
      try {
        ready = JSON.parse(readFileSync(readyFile, 'utf8'));
        child.kill('SIGTERM');
      } catch {
        // half written: next poll
      }
    }
  }, 50);
  const cut = setTimeout(() => child.kill('SIGKILL'), ms);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearInterval(poll);
      clearTimeout(cut);
      resolve({ code, stderr, ready });
    }),
  );
}

/** Exit 2, a message naming `flag`, no stack; none of `secrets` echoed. */
async function refused(args: string[], flag: string, secrets: string[] = []) {
  const r = await serve(args);
  expect(r.code, r.stderr).toBe(2);
  expect(r.ready, r.stderr).toBeUndefined();
  expect(r.stderr).toContain(flag);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr.trim().split('\n').length, r.stderr).toBeLessThanOrEqual(3);
  for (const s of secrets) expect(r.stderr).not.toContain(s);
}

describe('round 8: hostile ncs serve flags', () => {
  it.each([['99999'], ['-1'], ['0x1f90'], ['4010abc'], [''], ['1e3'], ['65536'], ['4010.5']])(
    '--port %j: exit 2 naming --port',
    async (port) => {
      const r = await serve(['--port', port]);
      // The last --port wins over the default 0 given first.
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('--port');
      expect(r.stderr).not.toMatch(STACK);
    },
  );

  // Did not hold before the fix (the user:pw case only): refused, but the message quotes the URL with its password ("got \"http://user:pw@…\"").
  it.each([
    ['javascript:alert(1)'],
    ['file:///etc/passwd'],
    ['http://127.0.0.1:1/\r\nSet-Cookie: x=1'],
    ['not a url'],
    ['http://user:pw@127.0.0.1:4010'],
  ])('--public-url %j: exit 2 naming --public-url', async (url) => {
    await refused(['--public-url', url], '--public-url', ['pw@']);
  });

  it('--data-dir with a newline in its name: starts and names the folder unbroken, or exit 2 naming the flag', async () => {
    const dir = join(tmp, 'line\nbreak');
    const r = await serve(['--data-dir', dir]);
    if (r.ready) expect(r.code).toBe(0);
    else {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).not.toMatch(STACK);
    }
  }, 20_000);

  it('--data-dir with a NUL byte: exit 2 naming --data-dir, no stack', async () => {
    // A NUL cannot reach argv; the environment carries no data dir either: use a control character instead.
    await refused(['--data-dir', join(tmp, 'a\u0001b'), '--store', 'redis://127.0.0.1:1/0'], '--store');
  });

  it.each([['abc'], ['0/60'], ['60/0'], ['-5/60'], ['1e309/60'], ['60/60/60']])(
    '--rate-limit %j: exit 2 naming it',
    async (v) => {
      await refused(['--rate-limit', v], '--rate-limit');
    },
  );

  it.each([['0'], ['-1'], ['1e309'], ['ten']])('--token-ttl %j: exit 2 naming it', async (v) => {
    await refused(['--token-ttl', v], '--token-ttl');
  });

  it.each([['-1'], ['abc'], ['99999999999999999999']])('--journal-size %j: exit 2 naming it', async (v) => {
    await refused(['--journal-size', v, '--no-inspector'], '--journal-size');
  });

  // Did not hold before the fix: accepted, the server starts (exit 0) with an admin token no HTTP client can send in a header.
  it('--admin-token with a newline: exit 2 naming --admin-token, the token not echoed', async () => {
    await refused(['--admin-token', 'ncs_admin_abc\ndef-secret-part'], '--admin-token', ['def-secret-part']);
  });

  it('--admin-token "" (an unset variable): refused, or a random token as when the flag is absent', async () => {
    const r = await serve(['--admin-token', '']);
    if (r.ready) expect(String(r.ready.adminToken)).toMatch(/^ncs_admin_\S{20,}$/);
    else expect(r.code, r.stderr).toBe(2);
  });

  // Did not hold before the fix: accepted, the server starts with the admin token "   ", which no Authorization header can carry.
  it('--admin-token "   " (blank): exit 2 naming --admin-token', async () => {
    await refused(['--admin-token', '   '], '--admin-token');
  });

  it('--store with a password and an unreachable port: exit 2, the password masked', async () => {
    const r = await serve(['--store', 'redis://:Sup3rS3cretPw@127.0.0.1:1/0']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).not.toContain('Sup3rS3cretPw');
    expect(r.stderr).not.toMatch(STACK);
  });

  it.each([['ftp://127.0.0.1:1/0'], ['redis://127.0.0.1:1/0?outage=418'], ['redis://127.0.0.1:1/99999'], ['redis://']])(
    '--store %j: exit 2 naming the store, no stack',
    async (url) => {
      const r = await serve(['--store', url]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/store/);
      expect(r.stderr).not.toMatch(STACK);
    },
  );

  it('--store together with --data-dir: exit 2 naming both', async () => {
    const r = await serve(['--store', 'redis://127.0.0.1:1/0', '--data-dir', join(tmp, 'both')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--store/);
    expect(r.stderr).toMatch(/--data-dir/);
  });

  it.skipIf(!REDIS_SERVER)(
    `--store ?prefix= with glob characters keeps its keys apart${REDIS_SERVER ? '' : NO_REDIS_REASON}`,
    async () => {
      const redis = await startRedis();
      try {
        const r = await serve(['--store', `${redis.url}?prefix=${encodeURIComponent('team-*[a]?')}`]);
        if (r.ready) expect(r.code).toBe(0);
        else {
          expect(r.code, r.stderr).toBe(2);
          expect(r.stderr).toMatch(/prefix/);
        }
      } finally {
        await redis.close();
      }
    },
    30_000,
  );

  it('--webhook-allow-host with "*" plus --host default: the server starts on loopback only', async () => {
    const r = await serve(['--webhook-allow-host', '*']);
    expect(r.ready?.baseUrl, r.stderr).toMatch(/^http:\/\/127\.0\.0\.1:/);
  }, 20_000);
});
