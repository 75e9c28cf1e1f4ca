import { escapeControl } from '../reporters/terminal-escape.ts';
import { createReporters, REPORTER_NAMES, type Reporter } from '../reporters/index.ts';
import { optionsFrom } from '../../simulator/contract/option-table.ts';
import { REPORT_OPTIONS, RUN_OPTIONS } from './command-options.ts';
import type { ConformanceOptions } from './options.ts';
import { runConformance } from './run.ts';

/** The flags of `ncs conformance run` as commander hands them over: by commander's names, read through RUN_OPTIONS and REPORT_OPTIONS. */
export type RunCommandFlags = Record<string, unknown>;

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  color?: boolean;
}

const defaultIo = (): CommandIo => ({
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  env: process.env,
});

/**
 * Flags win over NCS_* variables; absent flags leave the variables in force.
 * @example commandOptions({ baseUrl: 'http://127.0.0.1:4010' }, process.env).baseUrl
 */
export function commandOptions(flags: RunCommandFlags, env: Record<string, string | undefined>): ConformanceOptions {
  return optionsFrom(RUN_OPTIONS, flags, env);
}

/**
 * `ncs conformance run`: runs the kit with the chosen reporters; resolves to the exit code
 * (0 every MUST passed, 1 a MUST failed, 2 usage or connection error).
 * @example process.exitCode = await runConformanceCommand({ baseUrl: 'http://127.0.0.1:4010', reporter: 'console,junit' });
 */
export async function runConformanceCommand(flags: RunCommandFlags, io: CommandIo = defaultIo()): Promise<number> {
  const report = optionsFrom(REPORT_OPTIONS, flags, io.env);
  const names = (report.reporter ?? 'console')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(REPORTER_NAMES as readonly string[]).includes(n));
  if (unknown.length || names.length === 0) {
    io.stderr(
      `ncs conformance run: --reporter takes ${REPORTER_NAMES.join(', ')} (comma-separated), not ${unknown.join(', ') || 'nothing'}\n`,
    );
    return 2;
  }
  const reporters: Reporter[] = createReporters(names, {
    outputDir: report.output ?? 'conformance-results',
    console: { write: io.stdout, ...(io.color !== undefined ? { color: io.color } : {}) },
  });
  const result = await runConformance({
    ...commandOptions(flags, io.env),
    onEvent: (e) =>
      reporters.forEach((r) => {
        r.onEvent(e);
      }),
  });
  await Promise.all(reporters.map((r) => r.done()));
  // One line, with the deployment's text made harmless for the terminal.
  if (result.error) io.stderr(`ncs conformance run: ${escapeControl(result.error)}\n`);
  return result.exitCode;
}
