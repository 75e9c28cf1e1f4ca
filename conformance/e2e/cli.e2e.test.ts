import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../simulator/app/serve.ts';
import { CHECKS } from '../checks/index.ts';
import { checksMarkdownTable } from '../reporters/check-list.ts';
import { JsonReport } from '../reporters/json-report.ts';
import { selectChecks } from '../runner/registry.ts';
import { violationOptions } from '../violations/index.ts';
import { TWO_TENANT_CLIENT } from './targets.ts';
import { closedPort, ncs } from '../../simulator/e2e/cli-process.ts';
import { NCS_BIN as BIN, waitForReadyFile, type ReadyInfo } from '../../simulator/e2e/ready-file.ts';

describe('ncs conformance (CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-conformance-cli-'));
  let clean: RunningServer;
  let leaky: RunningServer;
  beforeAll(async () => {
    [clean, leaky] = await Promise.all([
      serve({ port: 0, altPort: 0 }),
      serve({ port: 0, ...violationOptions('stack-trace-in-error') }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([clean?.close(), leaky?.close()]);
  });
  const auth = (s: RunningServer) => ['--base-url', s.baseUrl, '--tenant', s.tenant, '--token', s.token];

  it('exit 0 against the clean simulator, with console, JSON and JUnit reports', async () => {
    const out = join(dir, 'clean');
    // A client acting for two tenants, a tenant it is not released for, the control plane's admin
    // token and a capability_denied case: every check can run.
    const { token, tenant } = clean.sandbox.issueToken(TWO_TENANT_CLIENT);
    const profile = join(dir, 'profile.json');
    writeFileSync(profile, JSON.stringify({ capabilityDeniedCase: 'unoffered-capability' }));
    const res = await ncs([
      'conformance',
      'run',
      '--base-url',
      clean.baseUrl,
      '--tenant',
      tenant,
      '--token',
      token,
      '--other-tenant',
      'alpine-bistro',
      '--foreign-tenant',
      'lakeside-cafes',
      '--deployment-profile',
      profile,
      '--admin-token',
      clean.sandbox.adminToken,
      '--alt-base-url',
      clean.altBaseUrl!,
      '--reporter',
      'console,json,junit',
      '--output',
      out,
    ]);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/conformant: \d+ passed, 0 MUST failed/);
    expect(res.stdout).not.toContain(token);
    expect(res.stdout).not.toContain(clean.sandbox.adminToken);
    expect(res.stdout).not.toContain('\x1b[');
    const report = JsonReport.parse(JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')));
    expect(report.summary).toMatchObject({ total: CHECKS.length, passed: CHECKS.length });
    expect(XMLValidator.validate(readFileSync(join(out, 'junit.xml'), 'utf8'))).toBe(true);
  });

  it('exit 1 when a MUST check fails, with the evidence and a redacted curl', async () => {
    const res = await ncs(['conformance', 'run', ...auth(leaky), '--grep', 'errors\\.']);
    expect(res.status).toBe(1);
    expect(res.stdout).toContain('✗ errors.no-leaks');
    expect(res.stdout).toMatch(/reproduce: +curl -sS -i .*"\$NCS_TOKEN"/);
    expect(res.stdout).toMatch(/requestId: +req_/);
    expect(res.stdout).not.toContain(leaky.token);
    expect(res.stdout).not.toMatch(/✓ (auth|limits|versions)\./);
  });

  it('--fail-fast: stops at the first failed MUST, exit 1, and every report says what was not run', async () => {
    const out = join(dir, 'fail-fast');
    // One check at a time: the checks after the first failed MUST never start.
    const res = await ncs([
      'conformance',
      'run',
      ...auth(leaky),
      '--grep',
      'errors\\.',
      '--concurrency',
      '1',
      '--fail-fast',
      '--reporter',
      'console,json,junit,html',
      '--output',
      out,
    ]);
    expect(res.status, res.stderr).toBe(1);
    const report = JsonReport.parse(JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')));
    const notRun = report.results.filter((r) => r.notRun).length;
    expect(notRun).toBeGreaterThan(0);
    expect(report.stopped).toEqual({ maxFailures: 1, notRun });
    expect(report.summary).toMatchObject({ mustFailed: 1, notRun });
    const line = `stopped after the first MUST failure: ${notRun} check${notRun === 1 ? '' : 's'} not run`;
    expect(res.stdout).toContain(line);
    expect(res.stdout).toMatch(/not conformant: .* not run in .* \(exit code 1\)/);
    // Nothing after the failed MUST was started: the console's progress ends with it.
    const failed = report.results.findIndex((r) => r.status === 'fail' && r.check.severity === 'MUST');
    const after = report.results.slice(failed + 1);
    expect(after.every((r) => r.notRun)).toBe(true);
    for (const r of after) expect(res.stdout).not.toMatch(new RegExp(`[✓✗!-] ${r.check.name.replace('.', '\\.')} `));
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(junit).toContain(`<property name="stopped" value="${line}"/>`);
    expect(readFileSync(join(out, 'conformance.html'), 'utf8')).toContain(line);
  });

  it('takes its configuration from NCS_* variables', async () => {
    const out = join(dir, 'env');
    // Any group of checks shows NCS_GREP was read; the error checks are the cheapest run (0.55 s of CPU
    // in the child against 1.1 s for the limit checks, which send large bodies).
    const res = await ncs(['conformance', 'run'], {
      NCS_BASE_URL: clean.baseUrl,
      NCS_TENANT: clean.tenant,
      NCS_TOKEN: clean.token,
      NCS_GREP: '^errors\\.',
      NCS_REPORTER: 'json',
      NCS_OUTPUT: out,
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    const report = JsonReport.parse(JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')));
    expect(report.results.map((r) => r.check.name)).toEqual(selectChecks(CHECKS, '^errors\\.').map((c) => c.name));
    expect(report.results.length).toBeGreaterThan(1);
    expect(report.results.length).toBeLessThan(CHECKS.length);
  });

  it('exit 2 for usage errors and an unreachable target', async () => {
    // Four independent processes, started together (each is mostly Node's start-up).
    const port = await closedPort();
    const [noBase, badReporter, unknownFlag, down] = await Promise.all([
      ncs(['conformance', 'run']),
      ncs(['conformance', 'run', '--base-url', clean.baseUrl, '--reporter', 'pdf']),
      ncs(['conformance', 'run', '--bogus']),
      ncs([
        'conformance',
        'run',
        '--base-url',
        `http://127.0.0.1:${port}`,
        '--reporter',
        'console,json',
        '--output',
        join(dir, 'down'),
      ]),
    ]);
    expect([noBase.status, noBase.stdout, noBase.stderr]).toEqual([
      2,
      '',
      'ncs conformance run: --base-url is required (or NCS_BASE_URL)\n',
    ]);
    expect([badReporter.status, badReporter.stderr]).toEqual([
      2,
      expect.stringContaining('--reporter takes console, json, junit, html'),
    ]);
    expect(unknownFlag.status).toBe(2);
    expect(down.status).toBe(2);
    expect(JsonReport.parse(JSON.parse(readFileSync(join(dir, 'down', 'conformance.json'), 'utf8')))).toMatchObject({
      exitCode: 2,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
    expect(down.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/public\/v1: ECONNREFUSED/);
  });

  it('ncs conformance list prints every check; --format markdown is the README table', async () => {
    const [table, md] = await Promise.all([
      ncs(['conformance', 'list']),
      ncs(['conformance', 'list', '--format', 'markdown']),
    ]);
    expect(table.status).toBe(0);
    for (const c of CHECKS)
      expect(table.stdout).toMatch(new RegExp(`^${c.name.replace('.', '\\.')} +${c.severity}`, 'm'));
    expect(md.stdout).toBe(`${checksMarkdownTable()}\n`);
  });

  it('ncs serve --violation --alt-port: the CI flow catches a differing alternate address', async () => {
    // The refused violation's process runs while the other one starts and is checked.
    const unknownRun = ncs(['serve', '--port', '0', '--violation', 'no-such-violation']);
    const ready = join(dir, 'ready.json');
    const child = spawn(
      process.execPath,
      [
        BIN,
        'serve',
        '--port',
        '0',
        '--alt-port',
        '0',
        '--quiet',
        '--violation',
        'alt-base-differs',
        '--ready-file',
        ready,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const info = (await waitForReadyFile(ready)) as Required<ReadyInfo>;
      expect(info.altBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await ncs([
        'conformance',
        'run',
        '--base-url',
        info.baseUrl,
        '--alt-base-url',
        info.altBaseUrl,
        '--tenant',
        info.tenant,
        '--token',
        info.token,
        // The checks that compare the two addresses: the hand-written one and the generated layer (the
        // other checks against this violation are the violation matrix's, violations-*.e2e: exactly
        // base-urls.alt-identical fails). A whole run here cost 2.4 s of CPU in the kit's process and
        // about 1 s in the server's; this one about half.
        '--grep',
        '^(base-urls|generated)\\.',
      ]);
      expect(res.status).toBe(1);
      expect(res.stdout).toContain('✗ base-urls.alt-identical');
      // The generated layer sees it too: the providers filtered by category differ on the alternate URL.
      expect(res.stdout).toContain('✗ generated.alt-operations-alike');
      expect(res.stdout).toMatch(/2 MUST failed/);
    } finally {
      child.kill('SIGTERM');
      await exited; // ended with the test that started it
    }
    const unknown = await unknownRun;
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown violation "no-such-violation"; known: error-status-mismatch/);
  });
});
