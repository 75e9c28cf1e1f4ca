import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CheckResult, type RunEvent, summarise } from '../runner/events.ts';
import { type ConsoleReporterOptions, createConsoleReporter } from './console.ts';
import { createHtmlReporter } from './html.ts';
import { createJUnitReporter } from './junit.ts';
import type { Reporter } from './reporter.ts';

/**
 * A sandbox's client verdicts as GET /_sandbox/client-report answers them (the kit reads the JSON and
 * never imports the simulator, so the shape is restated here as what the reporters need).
 */
export interface ClientReportJson {
  generatedAt: string;
  since: string;
  observed: { clients: string[]; calls: number };
  rules: {
    id: string;
    severity: 'MUST' | 'SHOULD';
    title: string;
    section: string;
    sentence: string;
    status: 'pass' | 'fail' | 'not-observed';
    summary: string;
    evidence: { client: string; tenant: string; requestIds: string[]; at: string; waitsMs?: number[]; note: string }[];
  }[];
}

export const CLIENT_REPORT_FILES = {
  json: 'client-report.json',
  junit: 'client-report-junit.xml',
  html: 'client-report.html',
} as const;

function result(rule: ClientReportJson['rules'][number]): CheckResult {
  const check = {
    name: rule.id,
    area: `client-${rule.id.split('.')[0]}`,
    title: rule.title,
    severity: rule.severity,
    section: rule.section,
    tags: ['client'],
    mutating: false,
  };
  const failures =
    rule.status === 'fail'
      ? rule.evidence.map((e) => ({
          expected: `${rule.title}: "${rule.sentence}"`,
          observed: e.note,
          request: `${e.client} @ ${e.tenant}, ${e.at}${e.waitsMs ? `, waits ${e.waitsMs.join(' ms, ')} ms` : ''}`,
          ...(e.requestIds.length ? { requestId: e.requestIds.join(', ') } : {}),
        }))
      : [];
  return {
    check,
    status: rule.status === 'pass' ? 'pass' : rule.status === 'fail' ? 'fail' : 'skip',
    durationMs: 0,
    failures,
    notes: rule.status === 'pass' ? [rule.summary] : [],
    ...(rule.status === 'not-observed' ? { reason: `not observed: ${rule.summary}` } : {}),
  };
}

/**
 * The client verdicts as the kit's run events: one check per rule (not observed = skipped), a failed
 * MUST rule makes exit code 1. Every reporter of the kit renders them.
 * @example for (const e of clientReportEvents(report, baseUrl)) reporter.onEvent(e);
 */
export function clientReportEvents(report: ClientReportJson, baseUrl: string): RunEvent[] {
  const results = report.rules.map(result);
  const summary = summarise(results);
  const runId = `client-report-${report.generatedAt.replace(/[^0-9]/g, '').slice(0, 14)}`;
  return [
    {
      type: 'run-start',
      runId,
      startedAt: report.since,
      target: { baseUrl, credentials: 'none', environment: 'sandbox' },
      profile: 'full',
      allowMutations: false,
      checks: results.map((r) => r.check),
    },
    ...results.map((r) => ({ type: `check-${r.status}` as const, result: r }) as RunEvent),
    {
      type: 'run-end',
      runId,
      durationMs: Date.parse(report.generatedAt) - Date.parse(report.since),
      summary,
      exitCode: summary.mustFailed > 0 ? 1 : 0,
      results,
    },
  ];
}

/**
 * Renders client verdicts with the chosen reporters (console to stdout; json, junit and html as files
 * in `outputDir`) and returns the exit code: 1 when a MUST rule failed, else 0.
 * @example process.exit(await renderClientReport(report, { reporters: ['console', 'junit'], outputDir: 'out', baseUrl }));
 */
export async function renderClientReport(
  report: ClientReportJson,
  opts: { reporters: readonly string[]; outputDir: string; baseUrl: string; console?: ConsoleReporterOptions },
): Promise<0 | 1> {
  const reporters: Reporter[] = [];
  for (const name of opts.reporters) {
    if (name === 'console') reporters.push(createConsoleReporter(opts.console));
    else if (name === 'junit')
      reporters.push(createJUnitReporter({ file: join(opts.outputDir, CLIENT_REPORT_FILES.junit) }));
    else if (name === 'html')
      reporters.push(createHtmlReporter({ file: join(opts.outputDir, CLIENT_REPORT_FILES.html) }));
    else if (name === 'json') {
      // The report itself (rules with their sentences and evidence), as the control plane answers it.
      mkdirSync(opts.outputDir, { recursive: true });
      writeFileSync(join(opts.outputDir, CLIENT_REPORT_FILES.json), `${JSON.stringify(report, null, 2)}\n`);
    } else throw new Error(`unknown reporter ${name}; use console, json, junit, html`);
  }
  const events = clientReportEvents(report, opts.baseUrl);
  for (const e of events) for (const r of reporters) r.onEvent(e);
  await Promise.all(reporters.map((r) => r.done()));
  const end = events.at(-1);
  return end?.type === 'run-end' && end.exitCode === 1 ? 1 : 0;
}
