// `ncs conformance list`: the checks with severity and interface section.
import type { Command } from 'commander';

export function registerConformanceList(conformance: Command): void {
  conformance
    .command('list')
    .description('list the checks with severity and interface section')
    .option('--format <format>', 'table, markdown or json', 'table')
    .action(async (opts: { format: string }) => {
      // Loaded on use, like the rest of the kit, so `ncs serve` does not pay for it.
      const { listChecks } = await import('../../../conformance/reporters/check-list.ts');
      process.stdout.write(listChecks(opts.format));
    });
}
