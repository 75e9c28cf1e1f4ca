import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type CheckResult, type RunEvent, stoppedLine } from '../runner/events.ts';
import { failureLines, type Reporter } from './reporter.ts';
import { writeReportFile } from './safe-write.ts';
import { element, xmlEscape } from './xml.ts';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function failureBody(r: CheckResult): string {
  const blocks = r.failures.map((f) =>
    failureLines(f)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  );
  if (r.error) blocks.push(`could not complete: ${r.error}`);
  return blocks.join('\n\n');
}

function testcase(r: CheckResult): string {
  const attrs = { name: r.check.name, classname: `ncs.conformance.${r.check.area}`, time: seconds(r.durationMs) };
  const props = element(
    'properties',
    {},
    [
      element('property', { name: 'severity', value: r.check.severity }),
      element('property', { name: 'section', value: r.check.section }),
      element('property', { name: 'title', value: r.check.title }),
    ].join(''),
  );
  const parts = [props];
  const first = r.failures[0];
  if (r.status === 'skip') parts.push(element('skipped', { message: r.reason ?? 'skipped' }));
  else if (r.status === 'fail' && r.error && r.failures.length === 0) {
    parts.push(
      element('error', { message: r.error.split('\n')[0], type: r.errorKind ?? 'fault' }, xmlEscape(failureBody(r))),
    );
  } else if (r.status === 'fail' && r.check.severity === 'MUST') {
    parts.push(
      element(
        'failure',
        { message: first ? `${first.expected} — observed: ${first.observed}` : r.check.title, type: 'MUST' },
        xmlEscape(failureBody(r)),
      ),
    );
  } else if (r.status === 'fail') {
    // Advisory: the run does not fail on it, so CI should not show it red; the text says what to improve.
    parts.push(
      element('system-out', {}, xmlEscape(`ADVISORY (SHOULD) not met: ${r.check.title}\n\n${failureBody(r)}`)),
    );
  }
  if (r.notes.length) parts.push(element('system-err', {}, xmlEscape(r.notes.map((n) => `note: ${n}`).join('\n'))));
  return element('testcase', attrs, parts.join(''));
}

function runProperties(end: Extract<RunEvent, { type: 'run-end' }>): string {
  const props = [
    end.seed !== undefined ? element('property', { name: 'seed', value: end.seed }) : '',
    end.stopped ? element('property', { name: 'stopped', value: stoppedLine(end.stopped) }) : '',
  ].join('');
  return props ? element('properties', {}, props) : '';
}

/** The whole run as JUnit XML: one testsuite per area, one testcase per check. */
export function toJUnitXml(end: Extract<RunEvent, { type: 'run-end' }>, startedAt = new Date().toISOString()): string {
  const areas = [...new Set(end.results.map((r) => r.check.area))];
  const count = (rs: CheckResult[]) => ({
    tests: rs.length,
    failures: rs.filter(
      (r) => r.status === 'fail' && r.check.severity === 'MUST' && !(r.error && r.failures.length === 0),
    ).length,
    errors: rs.filter((r) => r.status === 'fail' && r.error !== undefined && r.failures.length === 0).length,
    skipped: rs.filter((r) => r.status === 'skip').length,
  });
  const suites = areas.map((area) => {
    const rs = end.results.filter((r) => r.check.area === area);
    return element(
      'testsuite',
      {
        name: area,
        ...count(rs),
        // Checks run at once: their summed durations can exceed the run, which a suite's time never does.
        time: seconds(
          Math.min(
            rs.reduce((t, r) => t + r.durationMs, 0),
            end.durationMs,
          ),
        ),
        timestamp: startedAt.replace(/Z$/, ''),
      },
      rs.map(testcase).join(''),
    );
  });
  // A run that could not judge the target (exit code 2) is itself an error, so CI shows why.
  if (end.error) {
    suites.push(
      element(
        'testsuite',
        { name: 'run', tests: 1, failures: 0, errors: 1, skipped: 0, time: seconds(end.durationMs) },
        element(
          'testcase',
          { name: 'conformance run', classname: 'ncs.conformance.run', time: seconds(end.durationMs) },
          element('error', { message: end.error, type: 'setup' }),
        ),
      ),
    );
  }
  const all = count(end.results);
  const body = element(
    'testsuites',
    { name: 'ncs conformance', ...all, errors: all.errors + (end.error ? 1 : 0), time: seconds(end.durationMs) },
    // The seed of the generated probes, so CI can repeat a run exactly (--seed); a run that stopped early says so.
    runProperties(end) + suites.join(''),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`;
}

/**
 * JUnit XML for CI systems; MUST failures are <failure>, advisory ones are told in <system-out>.
 * @example createJUnitReporter({ file: 'conformance-results/junit.xml' })
 */
export function createJUnitReporter(opts: { file?: string; write?: (text: string) => void }): Reporter {
  let startedAt: string | undefined;
  return {
    name: 'junit',
    onEvent(e) {
      if (e.type === 'run-start') startedAt = e.startedAt;
      if (e.type !== 'run-end') return;
      const xml = toJUnitXml(e, startedAt);
      if (opts.file) {
        mkdirSync(dirname(opts.file), { recursive: true });
        writeReportFile(opts.file, xml);
      }
      opts.write?.(xml);
    },
    done: async () => undefined,
  };
}
