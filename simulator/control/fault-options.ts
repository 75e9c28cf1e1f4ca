// The fault a command line asks for, as the control plane's body: `ncs sandbox fault` wires its options here.
import type { ControlClient } from './client.ts';
import { parseDuration } from './client.ts';
import { AddFaultBody } from './routes.ts';

/** The fault command's options, as commander parses them (numbers already checked as whole numbers). */
export interface FaultCliOptions {
  route?: string;
  method?: string;
  tenant?: string;
  count?: number;
  duration?: string;
  retryAfter?: number;
  latency?: number;
  failWith?: string;
  hold?: number;
  afterMessages?: number;
  stall?: number;
  down?: number;
  skew?: number;
  webhook?: string;
}

// From the control plane's schema: what the check accepts is what the simulator accepts.
const FAIL_WITH: readonly string[] = AddFaultBody.shape.failWith.unwrap().options;

/**
 * The control plane's fault body from the command's options (the control plane validates the rest);
 * an unknown --fail-with or a bad --duration throws an Error with a one-line message.
 * @example faultBodyOf('latency', { latency: 300, count: 2 }) // { kind: 'latency', count: 2, latencyMs: 300 }
 */
export function faultBodyOf(
  kind: (typeof AddFaultBody.shape.kind.options)[number],
  o: FaultCliOptions,
): Parameters<ControlClient['addFault']>[0] {
  if (o.failWith !== undefined && !FAIL_WITH.includes(o.failWith))
    throw new Error(`--fail-with is one of ${FAIL_WITH.join(', ')}`);
  return {
    kind,
    ...(o.count !== undefined ? { count: o.count } : {}),
    ...(o.duration !== undefined ? { durationSeconds: parseDuration(o.duration) } : {}),
    ...(o.route ? { route: o.route } : {}),
    ...(o.method ? { method: o.method.toUpperCase() as 'GET' } : {}),
    ...(o.tenant ? { tenant: o.tenant } : {}),
    ...(o.retryAfter !== undefined ? { retryAfterSeconds: o.retryAfter } : {}),
    ...(o.latency !== undefined ? { latencyMs: o.latency } : {}),
    ...(o.failWith !== undefined ? { failWith: o.failWith as 'internal' } : {}),
    ...(o.hold !== undefined ? { holdMs: o.hold } : {}),
    ...(o.afterMessages !== undefined ? { afterMessages: o.afterMessages } : {}),
    ...(o.stall !== undefined ? { stallMs: o.stall } : {}),
    ...(o.down !== undefined ? { downMs: o.down } : {}),
    ...(o.skew !== undefined ? { skewSeconds: o.skew } : {}),
    ...(o.webhook ? { webhookId: o.webhook } : {}),
  };
}
