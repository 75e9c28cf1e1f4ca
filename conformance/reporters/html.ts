import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import { coverageLine } from '../runner/coverage.ts';
import { type CheckResult, type RunEvent, stoppedLine } from '../runner/events.ts';
import { INTERFACE_SECTIONS } from '../runner/sections.ts';
import { htmlEscape as esc } from './html-escape.ts';
import { HTML_REPORT_CSS } from './html-style.ts';
import { failureLines, plural, type Reporter } from './reporter.ts';
import { writeReportFile } from './safe-write.ts';

type RunStart = Extract<RunEvent, { type: 'run-start' }>;
type RunEnd = Extract<RunEvent, { type: 'run-end' }>;

// No script, no fetch, no link: the policy makes a browser refuse any network use the text might smuggle in.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

function kind(r: CheckResult): 'pass' | 'fail' | 'advisory' | 'skip' {
  if (r.status === 'fail') return r.check.severity === 'SHOULD' && !r.error ? 'advisory' : 'fail';
  return r.status;
}

const LABEL = { pass: 'PASS', fail: 'FAIL', advisory: 'SHOULD not met', skip: 'SKIP' } as const;

function checkBlock(r: CheckResult): string {
  const k = kind(r);
  const failures = r.failures
    .map(
      (f) =>
        `<dl class="failure">${failureLines(f)
          .map(
            ([key, value]) =>
              `<dt>${esc(key)}</dt><dd>${key === 'expected' || key === 'observed' ? esc(value) : `<pre>${esc(value)}</pre>`}</dd>`,
          )
          .join('')}</dl>`,
    )
    .join('');
  const extra = [
    r.reason ? `<p class="muted">skipped: ${esc(r.reason)}</p>` : '',
    r.error ? `<p>could not complete (${esc(r.errorKind ?? 'fault')}): ${esc(r.error)}</p>` : '',
    ...r.notes.map((n) => `<p class="muted">note: ${esc(n)}</p>`),
  ].join('');
  return `<article class="check ${k}" id="check-${esc(r.check.name)}"><header><span class="tag ${k}">${LABEL[k]}</span><span class="name">${esc(r.check.name)}</span><span class="tag">${r.check.severity}</span><span>${esc(r.check.title)}</span><span class="muted">${Math.round(r.durationMs)} ms</span></header>${failures}${extra}</article>`;
}

function verdict(end: RunEnd): string {
  if (end.exitCode === 2)
    return `<p class="verdict error">Could not judge the target: ${esc(end.error ?? 'run error')}</p>`;
  const req = end.summary.coverage.requirement;
  if (end.exitCode === 1 && end.summary.mustFailed === 0 && req && !req.met)
    return `<p class="verdict fail">FAIL: too little coverage (--require ${esc(req.wanted)}): ${esc(req.shortfall ?? '')}</p>`;
  if (end.exitCode === 1)
    return `<p class="verdict fail">FAIL: ${plural(end.summary.mustFailed, 'MUST check')} failed</p>`;
  return `<p class="verdict pass">PASS: every MUST check judged holds</p>`;
}

/** The failures first (no links: the page refers to nothing), so a long report does not hide them among passes. */
function failureSummary(results: readonly CheckResult[]): string {
  const failed = results.filter((r) => r.status === 'fail');
  if (failed.length === 0) return '';
  const items = failed
    .map(
      (r) =>
        `<li><b>${esc(r.check.name)}</b> <span class="tag">${r.check.severity}</span> ${esc(r.failures[0]?.expected ?? r.error ?? r.check.title)}</li>`,
    )
    .join('');
  return `<section class="failures"><h2>Failures (${failed.length})</h2><ul>${items}</ul></section>`;
}

/**
 * The whole run as one self-contained HTML page: summary, checks grouped by interface section (in the
 * interface's order), every failure with expected/observed and its curl reproduction.
 * @example writeFileSync('report.html', toHtmlReport(runStart, runEnd))
 */
export function toHtmlReport(start: RunStart | undefined, end: RunEnd): string {
  const s = end.summary;
  const order = (section: string) => {
    const i = (INTERFACE_SECTIONS as readonly string[]).indexOf(section);
    return i === -1 ? INTERFACE_SECTIONS.length : i;
  };
  const sections = [...new Set(end.results.map((r) => r.check.section))].sort((a, b) => order(a) - order(b));
  const groups = sections.map((section) => {
    const rs = end.results.filter((r) => r.check.section === section);
    const failed = rs.filter((r) => r.status === 'fail').length;
    return `<section><h2>${esc(section)} <span class="muted">(${plural(rs.length, 'check')}${failed ? `, ${failed} failed` : ''})</span></h2>${rs.map(checkBlock).join('')}</section>`;
  });
  const target = start?.target;
  const meta = [
    target ? `target ${esc(target.baseUrl)}` : '',
    target?.tenant ? `tenant ${esc(target.tenant)}` : '',
    start ? `profile ${esc(start.profile)}` : '',
    start ? (start.allowMutations ? 'modifying checks allowed' : 'read-only') : '',
    start ? `started ${esc(start.startedAt)}` : '',
    start?.seed !== undefined ? `seed ${start.seed}` : '',
    `run ${esc(end.runId)}, ${(end.durationMs / 1000).toFixed(1)} s`,
  ].filter(Boolean);
  const tiles = [
    ['checks', s.total],
    ['passed', s.passed],
    ['MUST failed', s.mustFailed],
    ['SHOULD not met', s.shouldFailed],
    ['skipped', s.skipped - s.notRun],
    ...(s.notRun ? [['not run', s.notRun] as const] : []),
    ['could not complete', s.errored],
  ]
    .map(([label, n]) => `<div><b>${n}</b>${label}</div>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>ncs conformance report ${esc(end.runId)}</title>
<style>${HTML_REPORT_CSS}</style></head><body>
<h1>ncs conformance report</h1><p class="meta">${meta.join(' · ')}</p>${verdict(end)}
<p class="coverage">${esc(coverageLine(s.coverage))}${s.coverage.skippedForCredentials ? ` · ${plural(s.coverage.skippedForCredentials, 'check')} skipped for lack of credentials` : ''}</p>
${(end.notices ?? []).map((n) => `<p class="muted">notice: ${esc(n)}</p>`).join('')}
${end.stopped ? `<p class="verdict fail">${esc(stoppedLine(end.stopped))}</p>` : ''}
<div class="summary">${tiles}</div>
${failureSummary(end.results)}
${groups.join('\n')}
</body></html>
`;
}

/**
 * The `html` reporter: writes the report once the run ends, to `file` and/or through `write`.
 * @example createHtmlReporter({ file: 'conformance-results/conformance.html' })
 */
export function createHtmlReporter(opts: { file?: string; write?: (text: string) => void }): Reporter {
  let start: RunStart | undefined;
  return {
    name: 'html',
    onEvent(e) {
      if (e.type === 'run-start') start = e;
      if (e.type !== 'run-end') return;
      const text = toHtmlReport(start, e);
      if (opts.file) {
        mkdirSync(dirname(opts.file), { recursive: true });
        writeReportFile(opts.file, text);
      }
      opts.write?.(text);
    },
    done: async () => undefined,
  };
}
