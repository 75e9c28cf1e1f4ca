// `ncs client-report`: the client verdicts of a running sandbox (GET /_sandbox/client-report) through
// the kit's reporters. Exit 0: no MUST rule failed; 1: a MUST rule failed; 2: usage or connection error.
import type { Command } from 'commander';
import { controlModules } from './lazy.ts';
import { UsageError } from './usage.ts';

const REPORTERS = ['console', 'json', 'junit', 'html'];

export function registerClientReport(program: Command): void {
  program
    .command('client-report')
    .description(
      "judge your client: the sandbox's verdicts on the duties the interface gives clients (exit 0: no MUST failed, 1: a MUST failed, 2: usage or connection error)",
    )
    .option('--base-url <url>', 'simulator base URL (env NCS_BASE_URL)')
    .option('--admin-token <token>', 'admin token printed by ncs serve (env NCS_ADMIN_TOKEN)')
    .option('--ready-file <path>', 'read base URL and admin token from ncs serve --ready-file')
    .option('--client <id>', "only this client's calls (the token's client id)")
    .option('--tenant <id>', "only this tenant's calls")
    .option('--reporter <list>', 'console,json,junit,html (default console)')
    .option('--json', 'also write client-report.json into --output')
    .option('--junit', 'also write client-report-junit.xml into --output (for CI)')
    .option('--html', 'also write client-report.html into --output')
    .option('--output <dir>', 'directory for json, junit and html (default client-report-results)')
    .action(async (opts) => {
      const names = new Set<string>(
        opts.reporter
          ? String(opts.reporter)
              .split(',')
              .map((s) => s.trim())
          : ['console'],
      );
      for (const flag of ['json', 'junit', 'html']) if (opts[flag]) names.add(flag);
      const unknown = [...names].filter((n) => !REPORTERS.includes(n));
      if (unknown.length) throw new UsageError(`unknown reporter ${unknown.join(', ')}; use ${REPORTERS.join(', ')}`);
      // Loaded when the command runs, not at every start (see program.ts).
      const { createControlClient, resolveControl } = await controlModules();
      const control = resolveControl(opts);
      const report = await createControlClient(control).clientReport({
        ...(opts.client ? { client: opts.client } : {}),
        ...(opts.tenant ? { tenant: opts.tenant } : {}),
      });
      const { renderClientReport } = await import('../../../conformance/reporters/client-report.ts');
      process.exit(
        await renderClientReport(report, {
          reporters: [...names],
          outputDir: opts.output ?? 'client-report-results',
          baseUrl: control.baseUrl,
        }),
      );
    });
}
