// `ncs sandbox …`: drive a running simulator through its control plane (admin token).
import type { Command } from 'commander';
import type { ControlClient } from '../../../simulator/control/client.ts';
import { controlModules } from './lazy.ts';
import { registerFaultCommand, registerReceiverCheck } from './sandbox-fault.ts';
import { asUsage, positiveIntOption, print } from './usage.ts';

export function registerSandbox(program: Command): void {
  const sandbox = program
    .command('sandbox')
    .description('drive a running simulator through its control plane (admin token)')
    .option('--base-url <url>', 'simulator base URL (env NCS_BASE_URL)')
    .option('--admin-token <token>', 'admin token printed by ncs serve (env NCS_ADMIN_TOKEN)')
    .option('--ready-file <path>', 'read base URL and admin token from ncs serve --ready-file');
  const run = (action: (ctl: ControlClient) => Promise<unknown>) => async () => {
    const { createControlClient, resolveControl } = await controlModules();
    return action(createControlClient(resolveControl(sandbox.opts()))).then(print);
  };

  sandbox
    .command('state')
    .description('counts, clock offset, armed faults')
    .action(run((ctl) => ctl.summary()));
  sandbox
    .command('reset')
    .description('reset all state to the fixtures')
    .action(run((ctl) => ctl.reset()));
  sandbox
    .command('pause <connectionId>')
    .description('pause a connection')
    .action((id: string) => run((ctl) => ctl.pause(id))());
  sandbox
    .command('resume <connectionId>')
    .description('resume a paused connection')
    .action((id: string) => run((ctl) => ctl.resume(id))());
  sandbox
    .command('revoke <connectionId>')
    .description('revoke a connection (final)')
    .action((id: string) => run((ctl) => ctl.revoke(id))());
  sandbox
    .command('clock [advance]')
    .description('show the clock, or move it forward (e.g. 90s, 15m, 2h, 1d)')
    .action(async (by?: string) => {
      const { parseDuration } = await controlModules();
      const seconds = by === undefined ? undefined : asUsage(() => parseDuration(by));
      return run((ctl) => (seconds === undefined ? ctl.clock() : ctl.advanceClock(seconds)))();
    });
  registerFaultCommand(sandbox, run);
  sandbox
    .command('status <status>')
    .description('publish a service status on the public stream feed')
    .option('--message <text>')
    .action((status: string, o: { message?: string }) => run((ctl) => ctl.setStatus(status, o.message))());
  sandbox
    .command('trigger <event>')
    .description('emit a sample order.created / order.paid to a tenant (stream + webhooks)')
    .option('--tenant <id>', 'tenant', 'harbour-kitchens')
    .action((event: string, o: { tenant: string }) => run((ctl) => ctl.trigger(event, o.tenant))());
  registerReceiverCheck(sandbox);
  sandbox
    .command('run')
    .description('per-run isolation: a namespace of its own for one CI job')
    .command('create')
    .description('create a run seeded from the fixtures; prints {runId, token, tenant, adminToken, expiresAt}')
    .option('--ttl <seconds>', 'how long the run lives (default 3600, at most 604800)', positiveIntOption)
    .action((o: { ttl?: number }) => run((ctl) => ctl.createRun(o.ttl))());
  sandbox
    .command('faults')
    .description('list armed faults')
    .option('--clear', 'disarm all')
    .action((o: { clear?: boolean }) => run((ctl) => (o.clear ? ctl.clearFaults() : ctl.listFaults()))());
}
