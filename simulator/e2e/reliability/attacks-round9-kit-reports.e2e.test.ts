// Round 9: the kit's report files under a careless user or a hostile deployment: an --output that is a
// file, a report name already planted as a symlink to a file elsewhere, and a deployment that echoes the
// kit's client secret and token, which no report (console, JSON, JUnit, HTML) may print.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKEND } from './attacks-round7-helpers.ts';
import { env, hostile, useHostile } from './attacks-round9-kit-setup.ts';

useHostile();
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ncs-r9-reports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const basicValue = Buffer.from(`${BACKEND.id}:${BACKEND.secret}`).toString('base64');

/** `ncs conformance run` against the hostile proxy with client credentials; killed after 90 s. */
function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        'bin/ncs.mjs',
        'conformance',
        'run',
        '--base-url',
        hostile().url,
        '--tenant',
        env.sim?.tenant ?? '',
        '--client-id',
        BACKEND.id,
        '--client-secret',
        BACKEND.secret,
        '--timeout',
        '3000',
        ...args,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}

describe('round 9: report files', () => {
  it('--output naming an existing file: exit 2 with one clear line, no stack trace', async () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'keep me\n');
    const r = await cli([
      '--grep',
      '^auth\\.missing-token$',
      '--reporter',
      'console,json,junit,html',
      '--output',
      file,
    ]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/not-a-folder/);
    expect(`${r.out}${r.err}`).not.toMatch(/\n\s+at .*:\d+:\d+/);
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
  }, 120_000);

  // Held after the fix: reports are written to a temporary file and renamed into place, replacing the link, not its target (safe-write.ts).
  it('a report name planted as a symlink to a file elsewhere does not overwrite that file', async () => {
    const out = join(dir, 'out-link');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    rmSync(out, { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(out);
    symlinkSync(victim, join(out, 'conformance.json'));
    const r = await cli(['--grep', '^auth\\.missing-token$', '--reporter', 'json', '--output', out]);
    expect([0, 2]).toContain(r.code);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  }, 120_000);

  it('--output in folders that do not exist yet is created and the reports written', async () => {
    const out = join(dir, 'a', 'b', 'c');
    const r = await cli(['--grep', '^auth\\.missing-token$', '--reporter', 'json,junit,html', '--output', out]);
    expect(r.code, r.err).toBe(0);
    for (const f of ['conformance.json', 'junit.xml', 'conformance.html']) expect(existsSync(join(out, f))).toBe(true);
  }, 120_000);

  it('a deployment echoing the client secret and token: the run fails no-leaks, no report prints them', async () => {
    const tokens: string[] = [];
    hostile().attack = async (req, res) => {
      const p = (req.url ?? '').replace(/\?.*$/s, '');
      if (!p.endsWith('/providers')) return false;
      const auth = String(req.headers.authorization ?? '');
      if (auth.startsWith('Bearer ')) tokens.push(auth.slice(7));
      const up = await fetch(`${env.sim?.baseUrl}${req.url}`, {
        headers: { authorization: auth, 'x-service-tenant': String(req.headers['x-service-tenant'] ?? '') },
      });
      const json = (await up.json()) as { data?: Record<string, unknown> };
      if (json.data) json.data.debug = `client ${BACKEND.secret} basic ${basicValue} bearer ${auth}`;
      res.writeHead(up.status, {
        'content-type': 'application/json',
        'x-debug-auth': auth,
        'x-debug-secret': BACKEND.secret,
      });
      res.end(JSON.stringify(json));
      return true;
    };
    const out = join(dir, 'leaks');
    const r = await cli([
      '--grep',
      '^(catalog\\.count-matches|responses\\.no-leaks)$',
      '--reporter',
      'console,json,junit,html',
      '--output',
      out,
    ]);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/responses\.no-leaks/);
    expect(tokens.length).toBeGreaterThan(0);
    const texts = [
      r.out,
      r.err,
      ...['conformance.json', 'junit.xml', 'conformance.html'].map((f) => readFileSync(join(out, f), 'utf8')),
    ];
    for (const t of texts)
      for (const s of [BACKEND.secret, basicValue, ...new Set(tokens)])
        expect(t.includes(s), `printed ${s.slice(0, 8)}…`).toBe(false);
  }, 120_000);

  it('terminal escape sequences in an answer reach the console report escaped, never raw', async () => {
    hostile().attack = (req, res) => {
      if (!(req.url ?? '').replace(/\?.*$/s, '').endsWith('/providers')) return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        '{"ok":true,"data":{"providers":"\u001b]0;pwned\u0007\u001b[2J\u001b[31mred","count":"\u001b[1A"},"meta":{}}\u001b[2J\u0007',
      );
      return true;
    };
    const r = await cli(['--grep', '^(catalog\\.count-matches|responses\\.envelope)$', '--reporter', 'console']);
    expect(r.code, r.out).toBe(1);
    const printed = `${r.out}${r.err}`;
    for (const raw of ['\u001b]0;', '\u001b[2J', '\u0007'])
      expect(printed.includes(raw), JSON.stringify(raw)).toBe(false);
  }, 120_000);
});
