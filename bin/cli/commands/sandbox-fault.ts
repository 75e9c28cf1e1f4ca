// `ncs sandbox fault` and `ncs sandbox receiver-check`: the two control-plane commands with many options.
import { Argument, type Command } from 'commander';
import type { ControlClient } from '../../../simulator/control/client.ts';
import type { FaultCliOptions } from '../../../simulator/control/fault-options.ts';
import { CALL_FAULTS, SIGNATURE_FAULTS, STREAM_FAULTS } from '../../../simulator/state/ports/faults.ts';
import { controlModules } from './lazy.ts';
import { asUsage, nonNegativeIntOption, positiveIntOption, print } from './usage.ts';

/** Every fault kind, in the order of the control plane's schema (AddFaultBody). */
export const FAULT_KINDS = [...CALL_FAULTS, ...STREAM_FAULTS, ...SIGNATURE_FAULTS];

type Run = (action: (ctl: ControlClient) => Promise<unknown>) => () => Promise<void>;

/** `ncs sandbox fault <kind> [options]`: the body is built by the library (faultBodyOf), checked by its schema. */
export function registerFaultCommand(sandbox: Command, run: Run): void {
  // The kinds the simulator declares (sandbox-fault.test.ts holds them equal to the control plane's schema,
  // so what the help lists is what the simulator accepts), read from the faults' port rather than from
  // that schema: the control plane's zod schemas need not be built at every start (lazy.ts).
  const kinds = FAULT_KINDS;
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
    .action(async (kind: (typeof kinds)[number], o: FaultCliOptions) => {
      // Loaded when the command runs, not at every start (see program.ts).
      const { faultBodyOf } = await import('../../../simulator/control/fault-options.ts');
      return run((ctl) => ctl.addFault(asUsage(() => faultBodyOf(kind, o))))();
    });
}

/** `ncs sandbox receiver-check <webhookId>`: exit 1 when the receiver fails the scored sequence. */
export function registerReceiverCheck(sandbox: Command): void {
  sandbox
    .command('receiver-check <webhookId>')
    .description(
      'send a registered webhook receiver the scored sequence (valid, tampered, other key, ±301 s, upper-case hex, no header, duplicate, out of order); exit 1 when it fails',
    )
    .option('--tenant <id>', 'its tenant (found by id when absent)')
    .option('--timeout <ms>', 'each answer must come within this (default 5000)', positiveIntOption)
    .action(async (webhookId: string, o: { tenant?: string; timeout?: number }) => {
      const { createControlClient, resolveControl } = await controlModules();
      const ctl = createControlClient(resolveControl(sandbox.opts()));
      const result = await ctl.receiverCheck(webhookId, {
        ...(o.tenant ? { tenant: o.tenant } : {}),
        ...(o.timeout ? { timeoutMs: o.timeout } : {}),
      });
      print(result);
      if (!result.pass) process.exitCode = 1;
    });
}
