// `ncs sandbox …`: drive a running simulator through its control plane (admin token).
import type { Command } from 'commander';
import {
  createControlClient,
  parseDuration,
  type ControlClient,
  type ControlClientOptions,
} from '../../simulator/control/client.ts';
import { reachingFetch } from '../../simulator/lib/reach.ts';
import { baseUrlOf, readReadyFile } from './target.ts';
import { nonNegativeIntOption, positiveIntOption, UsageError } from './usage.ts';

export interface SandboxCliOptions {
  baseUrl?: string;
  adminToken?: string;
  readyFile?: string;
}

/**
 * Where the control plane is: --ready-file, else --base-url/--admin-token, else NCS_BASE_URL/NCS_ADMIN_TOKEN.
 * @example resolveControl({ readyFile: '/tmp/ncs.json' }) // { baseUrl, adminToken, fetch }
 */
export function resolveControl(opts: SandboxCliOptions, env = process.env): ControlClientOptions {
  const ready = readReadyFile(opts.readyFile);
  const adminToken = opts.adminToken ?? ready.adminToken ?? env.NCS_ADMIN_TOKEN;
  if (!adminToken)
    throw new UsageError('the control plane needs the admin token: --admin-token, NCS_ADMIN_TOKEN or --ready-file');
  const baseUrl = baseUrlOf(opts.baseUrl ?? ready.baseUrl, env);
  return { baseUrl, adminToken, fetch: reachingFetch(globalThis.fetch, baseUrl) };
}

const print = (data: unknown): void => {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
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
      const seconds = by === undefined ? undefined : durationOf(by);
      return run((ctl) => (seconds === undefined ? ctl.clock() : ctl.advanceClock(seconds)))();
    });
  sandbox
    .command('fault <kind>')
    .description('inject internal | rate_limited | latency into the next matching calls')
    .option('--route <route>', 'operationId, route path or path (default: any)')
    .option('--method <method>', 'HTTP method (default: any)')
    .option('--count <n>', 'how many calls', positiveIntOption, 1)
    .option('--retry-after <seconds>', 'Retry-After of an injected 429', nonNegativeIntOption)
    .option('--latency <ms>', 'added latency', nonNegativeIntOption)
    .action(
      (kind: string, o: { route?: string; method?: string; count: number; retryAfter?: number; latency?: number }) =>
        run((ctl) =>
          ctl.addFault({
            kind: kind as 'internal',
            count: o.count,
            ...(o.route ? { route: o.route } : {}),
            ...(o.method ? { method: o.method.toUpperCase() as 'GET' } : {}),
            ...(o.retryAfter !== undefined ? { retryAfterSeconds: o.retryAfter } : {}),
            ...(o.latency !== undefined ? { latencyMs: o.latency } : {}),
          }),
        )(),
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

function durationOf(text: string): number {
  try {
    return parseDuration(text);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
