// `ncs sandbox ...`: commander wiring for the control plane (logic in simulator/cli/sandbox-command.ts).
import type { Command } from 'commander';
import { runSandboxAction } from '../../simulator/cli/sandbox-command.ts';

const print = (data: unknown): void => {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
};

export function registerSandboxCommands(program: Command) {
  const sandbox = program
    .command('sandbox')
    .description('drive a running simulator through its control plane (admin token)')
    .option('--base-url <url>', 'simulator base URL (env NCS_BASE_URL)', undefined)
    .option('--admin-token <token>', 'admin token printed by ncs serve (env NCS_ADMIN_TOKEN)')
    .option('--ready-file <path>', 'read base URL and admin token from ncs serve --ready-file');
  const action = (name: string, args: string[] = [], extra: Record<string, string | undefined> = {}): Promise<void> =>
    runSandboxAction(sandbox.opts(), name, args, extra).then(print);

  sandbox
    .command('state')
    .description('counts, clock offset, armed faults')
    .action(() => action('state'));
  sandbox
    .command('reset')
    .description('reset all state to the fixtures')
    .action(() => action('reset'));
  sandbox
    .command('pause <connectionId>')
    .description('pause a connection')
    .action((id: string) => action('pause', [id]));
  sandbox
    .command('resume <connectionId>')
    .description('resume a paused connection')
    .action((id: string) => action('resume', [id]));
  sandbox
    .command('revoke <connectionId>')
    .description('revoke a connection (final)')
    .action((id: string) => action('revoke', [id]));
  sandbox
    .command('clock [advance]')
    .description('show the clock, or move it forward (e.g. 90s, 15m, 2h, 1d)')
    .action((by?: string) => action('clock', by ? [by] : []));
  sandbox
    .command('fault <kind>')
    .description('inject internal | rate_limited | latency into the next matching calls')
    .option('--route <route>', 'operationId, route path or path (default: any)')
    .option('--method <method>', 'HTTP method (default: any)')
    .option('--count <n>', 'how many calls', '1')
    .option('--retry-after <seconds>', 'Retry-After of an injected 429')
    .option('--latency <ms>', 'added latency')
    .action((kind: string, o: Record<string, string>) => action('fault', [kind], o));
  sandbox
    .command('status <status>')
    .description('publish a service status on the public stream feed')
    .option('--message <text>')
    .action((status: string, o: { message?: string }) => action('status', [status], { message: o.message }));
  sandbox
    .command('trigger <event>')
    .description('emit a sample order.created / order.paid to a tenant (stream + webhooks)')
    .option('--tenant <id>', 'tenant', 'harbour-kitchens')
    .action((event: string, o: { tenant: string }) => action('trigger', [event], { tenant: o.tenant }));
  sandbox
    .command('faults')
    .description('list armed faults')
    .option('--clear', 'disarm all')
    .action((o: { clear?: boolean }) => action('faults', [], { clear: o.clear ? 'yes' : undefined }));
}
