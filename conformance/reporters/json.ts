import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunEvent } from '../runner/events.ts';
import type { JsonReport } from './json-report.ts';
import type { Reporter } from './reporter.ts';
import { writeReportFile } from './safe-write.ts';

/**
 * Writes the whole run as one JSON document (format ncs-conformance-report/1, see json-report.ts)
 * to `file`, or hands the text to `write`.
 * @example createJsonReporter({ file: 'conformance-results/conformance.json' })
 */
export function createJsonReporter(opts: { file?: string; write?: (text: string) => void }): Reporter {
  let start: Extract<RunEvent, { type: 'run-start' }> | undefined;
  let report: JsonReport | undefined;
  return {
    name: 'json',
    onEvent(e) {
      if (e.type === 'run-start') start = e;
      if (e.type !== 'run-end') return;
      report = {
        format: 'ncs-conformance-report/1',
        runId: e.runId,
        ...(start
          ? {
              startedAt: start.startedAt,
              target: start.target,
              profile: start.profile,
              allowMutations: start.allowMutations,
              ...(start.seed !== undefined ? { seed: start.seed } : {}),
            }
          : {}),
        durationMs: e.durationMs,
        exitCode: e.exitCode,
        ...(e.error ? { error: e.error } : {}),
        ...(e.notices?.length ? { notices: e.notices } : {}),
        ...(e.stopped ? { stopped: e.stopped } : {}),
        summary: e.summary,
        results: e.results,
      };
      const text = `${JSON.stringify(report, null, 2)}\n`;
      if (opts.file) {
        mkdirSync(dirname(opts.file), { recursive: true });
        writeReportFile(opts.file, text);
      }
      opts.write?.(text);
    },
    done: async () => undefined,
  };
}
