import {
  controlOptionsFromReadyFile,
  createControlClient,
  parseDuration,
  type ControlClientOptions,
} from '../control/client.ts';

export interface SandboxCliOptions {
  baseUrl?: string;
  adminToken?: string;
  readyFile?: string;
}

/** Resolves where the control plane is: --ready-file, else --base-url/--admin-token, else NCS_BASE_URL/NCS_ADMIN_TOKEN. */
export function resolveControl(opts: SandboxCliOptions, env = process.env): ControlClientOptions {
  if (opts.readyFile) return controlOptionsFromReadyFile(opts.readyFile);
  const adminToken = opts.adminToken ?? env.NCS_ADMIN_TOKEN;
  if (!adminToken)
    throw new Error('the control plane needs the admin token: --admin-token, NCS_ADMIN_TOKEN or --ready-file');
  return { baseUrl: opts.baseUrl ?? env.NCS_BASE_URL ?? 'http://127.0.0.1:4010', adminToken };
}

/**
 * Runs one `ncs sandbox` action and returns what to print (JSON).
 * @example await runSandboxAction({ readyFile: '/tmp/ncs.json' }, 'pause', ['con_123']);
 */
export async function runSandboxAction(
  opts: SandboxCliOptions,
  action: string,
  args: string[],
  extra: Record<string, string | undefined> = {},
): Promise<unknown> {
  const ctl = createControlClient(resolveControl(opts));
  switch (action) {
    case 'state':
      return ctl.summary();
    case 'reset':
      return ctl.reset();
    case 'pause':
      return ctl.pause(required(args[0], 'connection id'));
    case 'resume':
      return ctl.resume(required(args[0], 'connection id'));
    case 'revoke':
      return ctl.revoke(required(args[0], 'connection id'));
    case 'clock':
      return args[0] ? ctl.advanceClock(parseDuration(args[0])) : ctl.clock();
    case 'status':
      return ctl.setStatus(
        required(args[0], 'status (operational, degraded, partial_outage, major_outage, maintenance)'),
        extra.message,
      );
    case 'trigger':
      return ctl.trigger(required(args[0], 'event (order.created, order.paid)'), extra.tenant ?? 'harbour-kitchens');
    case 'faults':
      return extra.clear ? ctl.clearFaults() : ctl.listFaults();
    case 'fault': {
      const kind = required(args[0], 'fault kind (internal, rate_limited, latency)') as 'internal';
      return ctl.addFault({
        kind,
        ...(extra.route ? { route: extra.route } : {}),
        ...(extra.method ? { method: extra.method.toUpperCase() as 'GET' } : {}),
        ...(extra.count ? { count: Number(extra.count) } : {}),
        ...(extra.retryAfter ? { retryAfterSeconds: Number(extra.retryAfter) } : {}),
        ...(extra.latency ? { latencyMs: Number(extra.latency) } : {}),
      });
    }
    default:
      throw new Error(`unknown sandbox action ${action}`);
  }
}

function required(value: string | undefined, what: string): string {
  if (!value) throw new Error(`missing ${what}`);
  return value;
}
