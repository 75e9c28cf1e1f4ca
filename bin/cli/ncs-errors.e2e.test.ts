import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../simulator/app/serve.ts';
import { closedPort, ncs } from '../../simulator/e2e/cli-process.ts';

// One CLI behaviour (exit codes: 0 done, 1 a negative verdict, 2 the command could not do its work).
describe('ncs: one behaviour for errors in every command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-errors-'));
  let sim: RunningServer;
  beforeAll(async () => {
    sim = await serve({ port: 0 });
  });
  afterAll(() => sim?.close());

  it('usage errors exit 2 with one line naming the command, and nothing on stdout', async () => {
    const notAudit = join(dir, 'providers.json');
    writeFileSync(notAudit, JSON.stringify({ ok: true, data: { count: 0, providers: [] }, meta: {} }));
    const cases: [string[], RegExp][] = [
      [['serve', '--port', 'abc'], /^ncs serve: option '--port <port>' argument 'abc' is invalid\. A port is/],
      [
        ['serve', '--prot', '1'],
        /^ncs serve: unknown option '--prot' \(Did you mean --port\?\); see ncs serve --help\n$/,
      ],
      [['conformance', 'run', '--bogus'], /^ncs conformance run: unknown option '--bogus'/],
      [
        ['sandbox', 'fault', 'internal', '--count', 'x'],
        /^ncs sandbox fault: option '--count <n>' argument 'x' is invalid/,
      ],
      [['webhook', 'listen', '--port', '99999'], /^ncs webhook listen: option '--port <port>' argument '99999'/],
      [['audit', 'verify', notAudit], /^ncs audit verify: not verifiable: expected a GET \/audit-log response/],
      [['openapi', '--format', 'xml'], /^ncs openapi: --format must be json or yaml, not xml\n$/],
      [['nonsense'], /^ncs: unknown command 'nonsense'; see ncs --help\n$/],
    ];
    const results = await Promise.all(cases.map(([args]) => ncs(args)));
    results.forEach((r, i) => {
      const [args, line] = cases[i] ?? [[], /$^/];
      expect([args.join(' '), r.status, r.stdout]).toEqual([args.join(' '), 2, '']);
      expect(r.stderr).toMatch(line);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  });

  it('an unreachable base URL says "cannot reach <url>: <reason>" in every command that calls one', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const runs = await Promise.all([
      ncs(['token', '--client-id', 'a', '--client-secret', 'b', '--base-url', down]),
      ncs(['sandbox', '--base-url', down, '--admin-token', 'x', 'state']),
      ncs(['webhook', 'listen', '--base-url', down, '--token', 't', '--tenant', 'x']),
      ncs(['conformance', 'run', '--base-url', down, '--token', 't', '--tenant', 'x']),
    ]);
    const names = ['ncs token', 'ncs sandbox state', 'ncs webhook listen', 'ncs conformance run'];
    runs.forEach((r, i) => {
      expect(r.status).toBe(2);
      const escaped = down.replace(/[.:/]/g, '\\$&');
      expect(r.stderr).toMatch(new RegExp(`^${names[i]}: cannot reach ${escaped}[^:]*: .*ECONNREFUSED`));
      expect(r.stderr).not.toContain('fetch failed');
    });
  });

  it('credentials the deployment refuses stop the kit with exit 2 "credentials refused", not MUST failures', async () => {
    const refused = await ncs(['conformance', 'run', '--base-url', sim.baseUrl, '--tenant', sim.tenant], {
      NCS_TOKEN: 'ncs_at_expired-or-wrong-token',
      NCS_REPORTER: 'console',
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^ncs conformance run: credentials refused: .* answered 401 .*; no check ran\n$/);
    expect(refused.stdout + refused.stderr).not.toContain('expired-or-wrong-token');
    expect(refused.stdout).not.toMatch(/MUST failed/);
  });
});
