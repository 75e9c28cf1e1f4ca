import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../runner/events.ts';
import { fixtureRun } from '../test-support/fixture-run.ts';
import { createConsoleReporter, shouldUseColor } from './console.ts';
import { createJsonReporter } from './json.ts';
import { JsonReport } from './json-report.ts';
import { createJUnitReporter, toJUnitXml } from './junit.ts';
import type { Reporter } from './reporter.ts';

function feed(reporter: Reporter) {
  for (const e of fixtureRun()) reporter.onEvent(e);
}

describe('console reporter', () => {
  const render = (color: boolean) => {
    let out = '';
    feed(createConsoleReporter({ write: (t) => (out += t), color }));
    return out;
  };

  it('shows progress per check, then failures grouped by area with their evidence, then the verdict', () => {
    const out = render(false);
    const lines = out.split('\n');
    expect(lines[0]).toBe('ncs conformance abcd1234: http://127.0.0.1:4010');
    expect(lines).toContain('  ✓ errors.passes 12 ms');
    expect(lines).toContain('  ✗ errors.leaks MUST 30 ms');
    expect(lines).toContain('  ! envelope.header SHOULD 5 ms');
    expect(lines).toContain('  - base-urls.alt skipped: no alternate base URL: pass --alt-base-url');
    const results = out.slice(out.indexOf('Results by area'));
    expect(results).toContain('errors: 1 passed, 1 failed');
    expect(results).toContain('base-urls: 0 passed, 1 skipped');
    expect(results).toContain('      expected:   GET /providers: the error holds <nothing> internal');
    expect(results).toContain('      requestId:  req_abc123');
    expect(results).toContain(
      `      reproduce:  curl -sS -i 'http://127.0.0.1:4010/api/public/v1/providers' -H 'authorization: Bearer '"$NCS_TOKEN"`,
    );
    expect(results).toContain('could not complete: cannot reach http://x: ECONNRESET');
    expect(results).not.toContain('response:');
    expect(lines.at(-2)).toBe(
      'no verdict: 1 passed, 2 MUST failed, 1 advisory warning, 1 skipped in 48 ms (exit code 2)',
    );
    expect(out).not.toContain('\x1b[');
  });

  it('colours only on request', () => {
    expect(render(true)).toContain('\x1b[31m✗\x1b[0m');
  });

  it('respects NO_COLOR and terminals', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({}, { FORCE_COLOR: '1' })).toBe(true);
  });
});

describe('JSON reporter', () => {
  it('writes the documented report format', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ncs-json-')), 'deep', 'conformance.json');
    feed(createJsonReporter({ file }));
    const report = JsonReport.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(report).toMatchObject({
      format: 'ncs-conformance-report/1',
      runId: 'abcd1234',
      exitCode: 2,
      profile: 'full',
      startedAt: '2026-07-01T10:00:00.000Z',
      target: { baseUrl: 'http://127.0.0.1:4010', tenant: 'harbour-kitchens' },
      summary: { total: 5, passed: 1, failed: 3, skipped: 1, mustFailed: 2, shouldFailed: 1, errored: 1 },
    });
    expect(report.results.map((r) => r.status)).toEqual(['pass', 'fail', 'fail', 'skip', 'fail']);
    expect(report.results[1]!.failures[0]).toMatchObject({
      requestId: 'req_abc123',
      curl: expect.stringContaining('$NCS_TOKEN'),
    });
  });
});

describe('JUnit reporter', () => {
  const xml = () => {
    let text = '';
    feed(createJUnitReporter({ write: (t) => (text = t) }));
    return text;
  };
  const parse = (text: string) =>
    new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
    }).parse(text);

  it('is well-formed XML with one testsuite per area and the totals', () => {
    const text = xml();
    expect(XMLValidator.validate(text)).toBe(true);
    const { testsuites } = parse(text);
    expect(testsuites).toMatchObject({ name: 'ncs conformance', tests: '5', failures: '1', errors: '2', skipped: '1' });
    const suites = testsuites.testsuite as { name: string; tests: string; testcase: { name: string }[] }[];
    expect(suites.map((s) => [s.name, s.tests])).toEqual([
      ['errors', '2'],
      ['envelope', '2'],
      ['base-urls', '1'],
      ['run', '1'],
    ]);
    expect(suites[0]!.testcase.map((c) => c.name)).toEqual(['errors.passes', 'errors.leaks']);
  });

  it('renders MUST failures with expectation, observation, requestId and curl; advisories in system-out; skips; errors', () => {
    const cases = Object.fromEntries(
      (parse(xml()).testsuites.testsuite as { testcase: Record<string, any>[] }[])
        .flatMap((s) => s.testcase)
        .map((c) => [c.name, c]),
    );
    const failure = cases['errors.leaks'].failure;
    expect(failure.type).toBe('MUST');
    expect(failure.message).toBe(
      'GET /providers: the error holds <nothing> internal — observed: a stack frame: "at x (/srv/a.ts:1:2)"',
    );
    expect(failure['#text']).toContain('requestId: req_abc123');
    expect(failure['#text']).toContain(
      `reproduce: curl -sS -i 'http://127.0.0.1:4010/api/public/v1/providers' -H 'authorization: Bearer '"$NCS_TOKEN"`,
    );
    expect(failure['#text']).toContain('observed: a stack frame: "at x (/srv/a.ts:1:2)"');
    expect(cases['errors.leaks']['system-err']).toBe('note: a note & more');
    expect(cases['envelope.header'].failure).toBeUndefined();
    expect(cases['envelope.header']['system-out']).toMatch(/^ADVISORY \(SHOULD\) not met: rule of envelope.header/);
    expect(cases['base-urls.alt'].skipped.message).toBe('no alternate base URL: pass --alt-base-url');
    expect(cases['envelope.lost'].error).toMatchObject({
      type: 'connection',
      message: 'cannot reach http://x: ECONNRESET',
    });
    expect(cases['conformance run'].error.message).toBe('the target stopped answering during the run');
    expect(cases['errors.passes'].properties.property).toContainEqual({ name: 'severity', value: 'MUST' });
  });

  it('never gives a suite more time than the whole run (checks run at once)', () => {
    const events = fixtureRun();
    const end = events.at(-1) as Extract<RunEvent, { type: 'run-end' }>;
    const xml = toJUnitXml({ ...end, durationMs: 10 }, '2026-07-01T10:00:00.000Z');
    const times = [...xml.matchAll(/<testsuite [^>]*time="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(times.length).toBeGreaterThan(0);
    for (const t of times) expect(t).toBeLessThanOrEqual(0.01);
  });
});
