// `ncs sandbox …`: drive a running simulator through its control plane (admin token).
import { Argument, type Command } from 'commander';
import { createControlClient, parseDuration, type ControlClient } from '../../../simulator/control/client.ts';
import { type FaultCliOptions, faultBodyOf } from '../../../simulator/control/fault-options.ts';
import { AddFaultBody } from '../../../simulator/control/routes.ts';
import { resolveControl } from './target.ts';
import { nonNegativeIntOption, positiveIntOption, UsageError } from './usage.ts';

// Where the control plane is lives with the other target resolution; kept importable from here.
export { resolveControl, type SandboxCliOptions } from './target.ts';

const print = (data: unknown): void => {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
};
/** A bad option value the library turns down is a usage error (exit code 2). */
const asUsage = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
};

export function registerSandbox(program: Command): void {
  const sandbox = program
    .command('sandbox')
    .description('drive a running simulator through its control plane (admin token)')
    .option('--base-url <url>', 'simulator base URL (env NCS_BASE_URL)')
    .option('--admin-token <token>', 'admin token printed by ncs serve (env NCS_ADMIN_TOKEN)')
    .option('--ready-file <path>', 'read base URL and admin token from ncs serve --ready-file');
  const run = (action: (ctl: ControlClient) => Promise<unknown>) => () =>
    action(createControlClient(resolveControl(sandbox.opts()))).then(print);

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
    .action((by?: string) => {
      const seconds = by === undefined ? undefined : asUsage(() => parseDuration(by));
      return run((ctl) => (seconds === undefined ? ctl.clock() : ctl.advanceClock(seconds)))();
    });
  // The kinds come from the control plane's schema: what the help lists is what the simulator accepts.
  const kinds = AddFaultBody.shape.kind.options;
  sandbox
    .command('fault')
    .description('inject a fault into the next matching calls (signature faults: the next webhook deliveries)')
    .addArgument(new Argument('<kind>', 'what goes wrong').choices(kinds))
    .option('--route <route>', 'operationId, route path or path (default: any)')
    .option('--method <method>', 'HTTP method (default: any)')
    .option('--tenant <id>', 'only calls naming this tenant (default: any)')
    .option('--count <n>', 'how many calls (default 1, or every call during --duration)', positiveIntOption)
    .option('--duration <time>', 'the fault ends after this (e.g. 30s, 5m)')
    .option('--retry-after <seconds>', 'Retry-After of an injected 429 or 503', nonNegativeIntOption)
    .option('--latency <ms>', 'added latency', nonNegativeIntOption)
    .option('--fail-with <answer>', 'commit_then_fail: internal (500), unavailable (503), drop or timeout')
    .option('--hold <ms>', 'commit_then_fail timeout: how long the answer is held', nonNegativeIntOption)
    .option('--after-messages <n>', 'stream faults: messages sent before the fault acts', positiveIntOption)
    .option('--stall <ms>', 'stream_stall: silence before the stream ends', nonNegativeIntOption)
    .option('--down <ms>', 'stream_restart: how long the stream answers 503', nonNegativeIntOption)
    .option('--skew <seconds>', 'how far a signature fault moves the signed time (default 600)', positiveIntOption)
    .option('--webhook <webhookId>', 'signature faults: only deliveries to this receiver')
    .action((kind: (typeof kinds)[number], o: FaultCliOptions) =>
      run((ctl) => ctl.addFault(asUsage(() => faultBodyOf(kind, o))))(),
    );
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
  sandbox
    .command('receiver-check <webhookId>')
    .description(
      'send a registered webhook receiver the scored sequence (valid, tampered, other key, ±301 s, upper-case hex, no header, duplicate, out of order); exit 1 when it fails',
    )
    .option('--tenant <id>', 'its tenant (found by id when absent)')
    .option('--timeout <ms>', 'each answer must come within this (default 5000)', positiveIntOption)
    .action(async (webhookId: string, o: { tenant?: string; timeout?: number }) => {
      const ctl = createControlClient(resolveControl(sandbox.opts()));
      const result = await ctl.receiverCheck(webhookId, {
        ...(o.tenant ? { tenant: o.tenant } : {}),
        ...(o.timeout ? { timeoutMs: o.timeout } : {}),
      });
      print(result);
      if (!result.pass) process.exitCode = 1;
    });
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
