import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { type RunEvent, summarise } from '../runner/events.ts';
import { fixtureRun } from '../test-support/fixture-run.ts';
import { createHtmlReporter, toHtmlReport } from './html.ts';
import { createReporters, REPORT_FILES } from './index.ts';

const render = () => {
  let text = '';
  const reporter = createHtmlReporter({ write: (t) => (text = t) });
  for (const e of fixtureRun()) reporter.onEvent(e);
  return text;
};

describe('HTML reporter', () => {
  it('is one self-contained page: no script, no external reference, a CSP that forbids fetching', () => {
    const html = render();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<a |src=|href=|@import|url\(/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).toMatch(/@media print/);
  });

  it('shows the summary and the verdict of the run', () => {
    const html = render();
    expect(html).toContain('target http://127.0.0.1:4010');
    expect(html).toContain('<div><b>5</b>checks</div>');
    expect(html).toContain('<div><b>1</b>passed</div>');
    expect(html).toContain('<div><b>1</b>SHOULD not met</div>');
    expect(html).toContain('Could not judge the target: the target stopped answering during the run');
  });

  it('groups checks by interface section and escapes every text it shows', () => {
    const html = render();
    expect(html).toContain('<h2>Errors <span class="muted">(5 checks, 3 failed)</span></h2>');
    expect(html).toContain('GET /providers: the error holds &lt;nothing&gt; internal');
    expect(html).toContain('a stack frame: &quot;at x (/srv/a.ts:1:2)&quot;');
    expect(html).not.toContain('<nothing>');
    // Well-formed once the doctype and the void meta tags are set aside: no tag left open by unescaped text.
    const body = html.slice(html.indexOf('<body>'), html.indexOf('</body>') + 7);
    expect(XMLValidator.validate(body)).toBe(true);
  });

  it('gives each failure its expectation, observation, requestId and curl reproduction; skips and errors their reason', () => {
    const html = render();
    const leaks = html.slice(
      html.indexOf('id="check-errors.leaks"'),
      html.indexOf('</article>', html.indexOf('id="check-errors.leaks"')),
    );
    expect(leaks).toContain('<span class="tag fail">FAIL</span>');
    expect(leaks).toContain('<dt>expected</dt>');
    expect(leaks).toContain('<dt>requestId</dt><dd><pre>req_abc123</pre></dd>');
    expect(leaks).toContain(
      '<dt>reproduce</dt><dd><pre>curl -sS -i &#39;http://127.0.0.1:4010/api/public/v1/providers&#39;',
    );
    expect(leaks).toContain('note: a note &amp; more');
    expect(html).toContain('<span class="tag advisory">SHOULD not met</span><span class="name">envelope.header</span>');
    expect(html).toContain('skipped: no alternate base URL: pass --alt-base-url');
    expect(html).toContain('could not complete (connection): cannot reach http://x: ECONNRESET');
  });

  it('is registered as --reporter html and writes conformance.html into the output folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-html-'));
    const [reporter] = createReporters(['html'], { outputDir: dir });
    for (const e of fixtureRun()) reporter!.onEvent(e);
    expect(readFileSync(join(dir, REPORT_FILES.html), 'utf8')).toContain('ncs conformance report');
  });

  it('counts in English ("1 check") and lists every failure at the top, before the sections', () => {
    const events = fixtureRun();
    const start = events[0] as Extract<RunEvent, { type: 'run-start' }>;
    const end = events.at(-1) as Extract<RunEvent, { type: 'run-end' }>;
    const one = end.results.filter((r) => r.check.name === 'errors.leaks');
    const html = toHtmlReport(start, { ...end, results: one, summary: summarise(one) });
    expect(html).toContain('(1 check, 1 failed)');
    expect(html).not.toContain('(1 checks');
    const full = render();
    const top = full.indexOf('<section class="failures"><h2>Failures (3)</h2>');
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(full.indexOf('<h2>Errors'));
    expect(full.slice(top, full.indexOf('</section>', top))).toContain('<b>errors.leaks</b>');
    expect(full).toMatch(/coverage: 4 of 5 checks judged \(80%\)/);
  });
});
