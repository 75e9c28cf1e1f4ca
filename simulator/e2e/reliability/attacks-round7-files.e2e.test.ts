import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureError, loadFixtures } from '../../app/fixtures-loader.ts';
import { createSandbox } from '../../app/sandbox.ts';
import { serve } from '../../app/serve.ts';
import { DATABASE_FILE } from '../../state/persistence/sqlite-persistence.ts';
import { NCS_BIN as BIN } from '../ready-file.ts';
import { failure } from './attacks-round7-helpers.ts';

// Hardening round 7, files and in-process: hostile fixtures files, data dirs in odd filesystem states, and
// MSW handlers fed hostile requests. Read-only data dirs and a full disk are not tried: the tests run as
// root (permissions do not bind it) and mounting a tiny tmpfs is not permitted on shared hosts.
const root = mkdtempSync(join(tmpdir(), 'ncs-r7-'));
const BUILT_IN = JSON.parse(readFileSync(new URL('../../../fixtures/hospitality.json', import.meta.url), 'utf8'));

/** `ncs serve` with these flags until it exits (at most 8 s): its exit code and stderr. */
function serveExit(flags: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', ...flags], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at |node:internal|TypeError|RangeError/);
const fixturesFile = (name: string, content: string) => {
  const file = join(root, name);
  writeFileSync(file, content);
  return file;
};

describe('attacks round 7: hostile fixtures', () => {
  it('a second tenant with the same id is refused by its path (did not hold: accepted, the first shadowed it)', () => {
    const f = structuredClone(BUILT_IN);
    f.tenants.push({ ...f.tenants[0], name: 'Shadow' });
    expect(() => loadFixtures(f)).toThrow(/tenants\.3\.id: duplicate tenant id harbour-kitchens/);
  });

  it('two persons with one id or one e-mail are refused (did not hold: login_hint signed in the first)', () => {
    const f = structuredClone(BUILT_IN);
    f.persons.push({ ...f.persons[0], id: 'other-person' });
    expect(() => loadFixtures(f)).toThrow(/persons\.2\.email: duplicate person email/);
  });

  it("a person's unknown tenant is named under persons (did not hold: reported as clients.<i>.tenants)", () => {
    const f = structuredClone(BUILT_IN);
    f.persons[1].tenants = ['nowhere'];
    const err = (() => {
      try {
        loadFixtures(f);
      } catch (e) {
        return e as FixtureError;
      }
    })();
    expect(err?.issues).toEqual(['persons.1.tenants: unknown tenant nowhere']);
  });

  it('HTML in names reaches the API and the inspector as JSON data, never markup (did not hold: no nosniff)', async () => {
    const f = structuredClone(BUILT_IN);
    f.providers[0].name = '<img src=x onerror=alert(1)>';
    const s = await serve({ port: 0, rateLimit: false, fixtures: f });
    try {
      const res = await fetch(`${s.baseUrl}/api/public/v1/providers`, {
        headers: { authorization: `Bearer ${s.token}`, 'x-service-tenant': s.tenant },
      });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toContain('<img src=x onerror=alert(1)>');
      const dom = await fetch(`${s.baseUrl}/_sandbox/inspector/dom.js`);
      if (dom.status === 200) expect(await dom.text()).not.toMatch(/\.innerHTML\s*=/);
    } finally {
      await s.close();
    }
  });

  it('fixtures files that are 100,000 levels deep, a directory, empty, or 20 MB of one string: exit 2, one line, no stack', async () => {
    const deep = fixturesFile('deep.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const dir = join(root, 'a-dir.json');
    mkdirSync(dir);
    const empty = fixturesFile('empty.json', '');
    const big = fixturesFile('big.json', JSON.stringify({ ...BUILT_IN, description: 'x'.repeat(20_000_000) }));
    const results = await Promise.all([deep, dir, empty, big].map((file) => serveExit(['--fixtures', file])));
    for (const [i, r] of results.entries()) {
      expect(r.code, `${i}: ${r.stderr}`).toBe(i === 3 ? r.code : 2);
      noStack(r.stderr);
      expect(r.stderr.length, r.stderr.slice(0, 500)).toBeLessThan(2000);
    }
  });
});

describe('attacks round 7: data dirs in odd filesystem states', () => {
  it('a file where the data dir should be, a dangling symlink, a path through a file, the database a directory: exit 2 naming the path (did not hold: the last named nothing)', async () => {
    const file = fixturesFile('not-a-dir', 'x');
    const dangling = join(root, 'dangling');
    symlinkSync(join(root, 'nowhere', 'deeper'), dangling);
    const dbDir = join(root, 'db-is-dir');
    mkdirSync(join(dbDir, DATABASE_FILE), { recursive: true });
    const cases = [file, dangling, join(file, 'sub'), dbDir];
    const results = await Promise.all(cases.map((dir) => serveExit(['--data-dir', dir])));
    for (const [i, r] of results.entries()) {
      expect(r.code, `${cases[i]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(cases[i]);
      noStack(r.stderr);
    }
  });
});

describe('attacks round 7: MSW handlers in process', () => {
  const sandbox = createSandbox({ baseUrl: 'http://ncs-r7.test' });
  const server = setupServer(...sandbox.handlers);
  beforeAll(() => server.listen());
  afterAll(() => server.close());
  const { token, tenant } = sandbox.issueToken();
  const auth = () => ({ authorization: `Bearer ${token}`, 'x-service-tenant': tenant });

  it('hostile requests through MSW get the same envelopes as over HTTP', async () => {
    await sandbox.ready;
    const base = sandbox.baseUrl;
    const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json', ...headers },
        body,
      });
    await failure(
      await post('/api/public/v1/connections', '{"a":', { 'idempotency-key': 'r7-msw-1a' }),
      400,
      'invalid_request',
    );
    await failure(await post('/api/public/v1/capabilities', 'x'.repeat(2 * 1024 * 1024)), 400, 'invalid_request');
    await failure(
      await post('/api/public/v1/capabilities', `${'['.repeat(5000)}${']'.repeat(5000)}`),
      400,
      'invalid_request',
    );
    await failure(await fetch(`${base}/api/public/v1/connections?access_token=${token}`), 401, 'unauthorized', [token]);
    await failure(
      await fetch(`${base}/api/public/v1/connections/%E0%A4%A`, { headers: auth() }),
      400,
      'invalid_request',
    );
    await failure(await fetch(`${base}/_sandbox/clock`, { headers: auth() }), 403, 'forbidden', [token]);
  });
});
