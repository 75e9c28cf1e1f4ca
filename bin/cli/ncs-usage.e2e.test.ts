import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AddFaultBody } from '../../simulator/control/routes.ts';
import { ncs } from '../../simulator/e2e/cli-process.ts';
import { NCS_BIN, waitForReadyFile } from '../../simulator/e2e/ready-file.ts';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('ncs: version, missing commands, the help of fault kinds', () => {
  it('--version, -V, -v and `ncs version` print the version and exit 0', async () => {
    const runs = await Promise.all([['--version'], ['-V'], ['-v'], ['version']].map((args) => ncs(args)));
    for (const r of runs) expect([r.status, r.stdout, r.stderr]).toEqual([0, `${VERSION}\n`, '']);
  });

  it('`ncs` and a command of commands without one print one line naming the choices, exit 2', async () => {
    const cases: [string[], string][] = [
      [
        [],
        'ncs: a command is missing: serve, token, openapi, sandbox, inspector, webhook, audit, conformance, version, client-report; see ncs --help\n',
      ],
      [['webhook'], 'ncs webhook: a command is missing: sign, verify, listen; see ncs webhook --help\n'],
      [['audit'], 'ncs audit: a command is missing: verify; see ncs audit --help\n'],
      [['conformance'], 'ncs conformance: a command is missing: run, list; see ncs conformance --help\n'],
    ];
    const runs = await Promise.all(cases.map(([args]) => ncs(args)));
    runs.forEach((r, i) => {
      expect([r.status, r.stdout, r.stderr]).toEqual([2, '', cases[i]?.[1]]);
    });
    // Asked for, the help is still whole (exit 0).
    const help = await ncs(['webhook', '--help']);
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining('Commands:')]);
  });

  it('`ncs sandbox fault --help` lists every kind the control plane accepts, and a wrong kind is one line', async () => {
    const [help, wrong] = await Promise.all([ncs(['sandbox', 'fault', '--help']), ncs(['sandbox', 'fault', 'nope'])]);
    expect(help.status).toBe(0);
    const listed = help.stdout.replace(/\s+/g, ' ');
    for (const kind of AddFaultBody.shape.kind.options) expect(listed).toContain(`"${kind}"`);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(
      /^ncs sandbox fault: .*'nope' is invalid .*stale_signature, future_signature; see ncs sandbox fault --help\n$/,
    );
  });

  it('`--data-dir` prints no SQLite ExperimentalWarning (Node 22 emits one as node:sqlite loads: simulated here)', async () => {
    // Node 24 runs the tests and no longer warns; this preload makes node:sqlite warn as Node 22 does.
    const node22Warning = `data:text/javascript,${encodeURIComponent(`
      const load = process.getBuiltinModule; let warned = false;
      process.getBuiltinModule = function (id) {
        if (/^(node:)?sqlite$/.test(id) && !warned) {
          warned = true;
          process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
        }
        return load.call(process, id);
      };`)}`;
    const dir = mkdtempSync(join(tmpdir(), 'ncs-sqlite-warning-'));
    const ready = join(dir, 'ready.json');
    const child = spawn(
      process.execPath,
      [
        '--import',
        node22Warning,
        NCS_BIN,
        'serve',
        '--port',
        '0',
        '--quiet',
        '--data-dir',
        join(dir, 'data'),
        '--ready-file',
        ready,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise((r) => child.on('exit', r));
    try {
      await waitForReadyFile(ready);
      expect(stderr).toBe('');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    expect(stderr).not.toMatch(/ExperimentalWarning|SQLite/);
  }, 30_000);
});
