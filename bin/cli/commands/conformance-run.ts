// `ncs conformance run`: the kit against a deployment, with the chosen reporters.
import type { Command } from 'commander';
import { REPORT_OPTIONS, RUN_OPTIONS } from '../../../conformance/runner/command-options.ts';
import { addOptions } from '../option-table.ts';

// The kit (some 250 modules with undici and yaml) is loaded only when one of its commands runs, so
// `ncs serve` does not pay for it at start-up: only its option table (no imports) is read here.

export function registerConformanceRun(conformance: Command): void {
  const run = conformance
    .command('run')
    .description(
      'run the conformance checks against a deployment (exit 0: conformant, 1: a MUST failed, 2: usage or connection error)',
    );
  // Every option is a row of the kit's tables: flag, variable, reader and help declared once there.
  addOptions(addOptions(run, RUN_OPTIONS), REPORT_OPTIONS).action(async (opts) => {
    const { runConformanceCommand } = await import('../../../conformance/runner/run-command.ts');
    process.exit(await runConformanceCommand(opts));
  });
}
