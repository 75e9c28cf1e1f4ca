// `ncs inspector`: a fresh inspector login link from a running simulator (admin token), for a person who
// lost the page or its one-time link, without restarting the simulator.
import type { Command } from 'commander';
import { controlModules } from './lazy.ts';
import type { SandboxCliOptions } from './target.ts';

export function registerInspector(program: Command): void {
  program
    .command('inspector')
    .description('print a fresh one-time inspector login link of a running simulator (admin token)')
    .option('--base-url <url>', 'simulator base URL (env NCS_BASE_URL)')
    .option('--admin-token <token>', 'admin token printed by ncs serve (env NCS_ADMIN_TOKEN)')
    .option('--ready-file <path>', 'read base URL and admin token from ncs serve --ready-file')
    .action(async (opts: SandboxCliOptions) => {
      // Loaded when the command runs, not at every start (see program.ts).
      const { createControlClient, resolveControl } = await controlModules();
      const { url } = await createControlClient(resolveControl(opts)).inspectorLogin();
      process.stdout.write(`${url}\n`);
      process.stderr.write('open it in a browser: it logs in once (earlier sessions stay logged in)\n');
    });
}
